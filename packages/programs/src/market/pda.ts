/**
 * Program-derived addresses. The market id is a u64 little-endian 8-byte seed. The vault is the
 * associated token account of the market PDA for the USDC mint (owner off curve).
 */
import type { PublicKey } from '@solana/web3.js';
import { associatedTokenAddress, findProgramAddressCached } from '../solana/pda-cache.js';
import { MARKET_PROGRAM_ID } from './program-id.js';

export function marketIdSeed(marketId: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(marketId);
  return b;
}

export function findConfigPda(programId: PublicKey = MARKET_PROGRAM_ID): [PublicKey, number] {
  return findProgramAddressCached([Buffer.from('config')], programId);
}

export function findMarketPda(marketId: bigint, programId: PublicKey = MARKET_PROGRAM_ID): [PublicKey, number] {
  return findProgramAddressCached([Buffer.from('market'), marketIdSeed(marketId)], programId);
}

export function findYesMintPda(marketId: bigint, programId: PublicKey = MARKET_PROGRAM_ID): [PublicKey, number] {
  return findProgramAddressCached([Buffer.from('yes_mint'), marketIdSeed(marketId)], programId);
}

export function findNoMintPda(marketId: bigint, programId: PublicKey = MARKET_PROGRAM_ID): [PublicKey, number] {
  return findProgramAddressCached([Buffer.from('no_mint'), marketIdSeed(marketId)], programId);
}

export function findOutcomeMintPda(marketId: bigint, side: 'YES' | 'NO', programId: PublicKey = MARKET_PROGRAM_ID): [PublicKey, number] {
  return side === 'YES' ? findYesMintPda(marketId, programId) : findNoMintPda(marketId, programId);
}

/** The market's USDC vault: ATA(owner = market PDA, mint = USDC). */
export function findVaultAddress(marketId: bigint, usdcMint: PublicKey, programId: PublicKey = MARKET_PROGRAM_ID): PublicKey {
  const [market] = findMarketPda(marketId, programId);
  return associatedTokenAddress(usdcMint, market);
}
