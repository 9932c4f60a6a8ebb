/**
 * The creator's instructions over [creator (s,w), market (w), vault (w), creator_usdc (w),
 * token_program]: resolve(winning_side u8), claim_fees(), cancel_market().
 */
import { TransactionInstruction } from '@solana/web3.js';
import type { OutcomeSide } from '../../amm/index.js';
import { instructionDiscriminator } from '../../shared/discriminator.js';
import { instructionLayout } from '../../shared/layout.js';
import { MARKET_PROGRAM_ID } from '../program-id.js';
import { creatorInstructionKeys, sideCodec, type CreatorAccountsInput } from './common.js';

export const RESOLVE_DISCRIMINATOR = instructionDiscriminator('resolve');
export const CLAIM_FEES_DISCRIMINATOR = instructionDiscriminator('claim_fees');
export const CANCEL_MARKET_DISCRIMINATOR = instructionDiscriminator('cancel_market');
export const RESOLVE_DATA = instructionLayout(RESOLVE_DISCRIMINATOR, [['winningSide', sideCodec]]);

export function getResolveInstruction(input: CreatorAccountsInput & { winningSide: OutcomeSide }): TransactionInstruction {
  return new TransactionInstruction({
    programId: input.programId ?? MARKET_PROGRAM_ID,
    keys: creatorInstructionKeys(input),
    data: RESOLVE_DATA.encode(input),
  });
}

export function getClaimFeesInstruction(input: CreatorAccountsInput): TransactionInstruction {
  return new TransactionInstruction({
    programId: input.programId ?? MARKET_PROGRAM_ID,
    keys: creatorInstructionKeys(input),
    data: Buffer.from(CLAIM_FEES_DISCRIMINATOR),
  });
}

export function getCancelMarketInstruction(input: CreatorAccountsInput): TransactionInstruction {
  return new TransactionInstruction({
    programId: input.programId ?? MARKET_PROGRAM_ID,
    keys: creatorInstructionKeys(input),
    data: Buffer.from(CANCEL_MARKET_DISCRIMINATOR),
  });
}
