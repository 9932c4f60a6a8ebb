/** init_mints: creates the YES and NO mint PDAs (6 decimals, mint authority = market PDA). Creator only. */
import { TransactionInstruction, type PublicKey } from '@solana/web3.js';
import { instructionDiscriminator } from '../../shared/discriminator.js';
import { findMarketPda, findNoMintPda, findYesMintPda } from '../pda.js';
import { MARKET_PROGRAM_ID } from '../program-id.js';
import { SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID, readonly, signerW, writable } from './common.js';

export const INIT_MINTS_DISCRIMINATOR = instructionDiscriminator('init_mints');

export interface InitMintsInput {
  marketId: bigint;
  creator: PublicKey;
  programId?: PublicKey;
}

export function getInitMintsInstruction(input: InitMintsInput): TransactionInstruction {
  const programId = input.programId ?? MARKET_PROGRAM_ID;
  return new TransactionInstruction({
    programId,
    keys: [
      signerW(input.creator),
      writable(findMarketPda(input.marketId, programId)[0]),
      writable(findYesMintPda(input.marketId, programId)[0]),
      writable(findNoMintPda(input.marketId, programId)[0]),
      readonly(TOKEN_PROGRAM_ID),
      readonly(SYSTEM_PROGRAM_ID),
    ],
    data: Buffer.from(INIT_MINTS_DISCRIMINATOR),
  });
}
