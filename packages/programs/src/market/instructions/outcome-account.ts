/**
 * The idempotent creation of a wallet's outcome-token ATA: a buy mints into it, so the buy
 * transaction puts this instruction first (it is a no-op when the account exists).
 */
import { createAssociatedTokenAccountIdempotentInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import type { PublicKey, TransactionInstruction } from '@solana/web3.js';
import type { OutcomeSide } from '../../amm/index.js';
import { findOutcomeMintPda } from '../pda.js';
import { MARKET_PROGRAM_ID } from '../program-id.js';
import { getBuyInstruction, type TradeInput } from './trade.js';

export interface OutcomeAccountInput {
  marketId: bigint;
  side: OutcomeSide;
  owner: PublicKey;
  /** Default: the owner. */
  payer?: PublicKey;
  programId?: PublicKey;
}

export function getCreateOutcomeAccountInstruction(input: OutcomeAccountInput): TransactionInstruction {
  const [mint] = findOutcomeMintPda(input.marketId, input.side, input.programId ?? MARKET_PROGRAM_ID);
  const ata = getAssociatedTokenAddressSync(mint, input.owner, true);
  return createAssociatedTokenAccountIdempotentInstruction(input.payer ?? input.owner, ata, input.owner, mint);
}

/** [create the outcome ATA if missing, buy]: the instructions of a Family B buy transaction. */
export function getBuyInstructions(input: TradeInput): TransactionInstruction[] {
  return [getCreateOutcomeAccountInstruction({ ...input }), getBuyInstruction(input)];
}
