/** Shared pieces of the instruction builders: account metas, side bytes, derived addresses. */
import { getU8Codec, transformCodec, type FixedSizeCodec } from '@solana/kit';
import { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { SystemProgram, type AccountMeta, type PublicKey } from '@solana/web3.js';
import type { OutcomeSide } from '../../amm/index.js';
import { findMarketPda, findOutcomeMintPda, findVaultAddress } from '../pda.js';
import { MARKET_PROGRAM_ID } from '../program-id.js';
import { associatedTokenAddress } from '../../solana/pda-cache.js';

export { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_PROGRAM_ID };
export const SYSTEM_PROGRAM_ID = SystemProgram.programId;

export const signerW = (pubkey: PublicKey): AccountMeta => ({ pubkey, isSigner: true, isWritable: true });
export const signerR = (pubkey: PublicKey): AccountMeta => ({ pubkey, isSigner: true, isWritable: false });
export const writable = (pubkey: PublicKey): AccountMeta => ({ pubkey, isSigner: false, isWritable: true });
export const readonly = (pubkey: PublicKey): AccountMeta => ({ pubkey, isSigner: false, isWritable: false });

/** OutcomeSide as an instruction argument byte: 0 = YES, 1 = NO. */
export function encodeSide(side: OutcomeSide): number {
  return side === 'YES' ? 0 : 1;
}

export function decodeSide(byte: number): OutcomeSide | null {
  return byte === 0 ? 'YES' : byte === 1 ? 'NO' : null;
}

/** The side argument: u8 0 = YES, 1 = NO; any other byte decodes as null (the program answers InvalidSide). */
export const sideCodec: FixedSizeCodec<OutcomeSide | null, OutcomeSide | null, 1> = transformCodec(
  getU8Codec(),
  (side: OutcomeSide | null) => {
    if (side === null) throw new RangeError('no side to encode');
    return encodeSide(side);
  },
  decodeSide,
);

/** The market PDA, its vault, and (for a side) its outcome mint and the owner's two token accounts. */
export function marketAddresses(marketId: bigint, usdcMint: PublicKey, programId: PublicKey = MARKET_PROGRAM_ID) {
  return { market: findMarketPda(marketId, programId)[0], vault: findVaultAddress(marketId, usdcMint, programId) };
}

export function userSideAccounts(
  marketId: bigint,
  side: OutcomeSide,
  owner: PublicKey,
  usdcMint: PublicKey,
  programId: PublicKey = MARKET_PROGRAM_ID,
) {
  const [outcomeMint] = findOutcomeMintPda(marketId, side, programId);
  return {
    outcomeMint,
    userUsdc: associatedTokenAddress(usdcMint, owner),
    userOutcome: associatedTokenAddress(outcomeMint, owner),
  };
}

export interface SideAccountsInput {
  marketId: bigint;
  side: OutcomeSide;
  /** The trader or redeemer (signer). */
  owner: PublicKey;
  usdcMint: PublicKey;
  /** Default: the owner's USDC ATA and outcome-token ATA. */
  ownerUsdc?: PublicKey;
  ownerOutcome?: PublicKey;
  programId?: PublicKey;
}

/** buy, sell, redeem: [owner (s,w), market (w), vault (w), owner_usdc (w), outcome_mint (w), owner_outcome (w), token_program]. */
export function sideInstructionKeys(i: SideAccountsInput): AccountMeta[] {
  const programId = i.programId ?? MARKET_PROGRAM_ID;
  const { market, vault } = marketAddresses(i.marketId, i.usdcMint, programId);
  const user = userSideAccounts(i.marketId, i.side, i.owner, i.usdcMint, programId);
  return [
    signerW(i.owner),
    writable(market),
    writable(vault),
    writable(i.ownerUsdc ?? user.userUsdc),
    writable(user.outcomeMint),
    writable(i.ownerOutcome ?? user.userOutcome),
    readonly(TOKEN_PROGRAM_ID),
  ];
}

export interface CreatorAccountsInput {
  marketId: bigint;
  creator: PublicKey;
  usdcMint: PublicKey;
  /** Default: the creator's USDC ATA. */
  creatorUsdc?: PublicKey;
  programId?: PublicKey;
}

/** resolve, claim_fees, cancel_market: [creator (s,w), market (w), vault (w), creator_usdc (w), token_program]. */
export function creatorInstructionKeys(i: CreatorAccountsInput): AccountMeta[] {
  const programId = i.programId ?? MARKET_PROGRAM_ID;
  const { market, vault } = marketAddresses(i.marketId, i.usdcMint, programId);
  return [
    signerW(i.creator),
    writable(market),
    writable(vault),
    writable(i.creatorUsdc ?? associatedTokenAddress(i.usdcMint, i.creator)),
    readonly(TOKEN_PROGRAM_ID),
  ];
}
