/**
 * buy(side u8, amount_in u64, min_out u64) and sell(side u8, tokens_in u64, min_out u64): the
 * same data layout and account list. `min_out` is the user's limit: the program fails with
 * SlippageExceeded rather than give fewer tokens (buy) or less USDC (sell).
 */
import { getU64Codec } from '@solana/kit';
import { TransactionInstruction } from '@solana/web3.js';
import type { OutcomeSide } from '../../amm/index.js';
import { instructionDiscriminator } from '../../shared/discriminator.js';
import { instructionLayout } from '../../shared/layout.js';
import { MARKET_PROGRAM_ID } from '../program-id.js';
import { sideCodec, sideInstructionKeys, type SideAccountsInput } from './common.js';

export const BUY_DISCRIMINATOR = instructionDiscriminator('buy');
export const SELL_DISCRIMINATOR = instructionDiscriminator('sell');

export interface TradeArgs {
  side: OutcomeSide;
  /** buy: raw USDC to spend; sell: raw tokens to sell. */
  amount: bigint;
  /** buy: minimum tokens out; sell: minimum USDC out. */
  minOut: bigint;
}

const TRADE_FIELDS = [
  ['side', sideCodec],
  ['amount', getU64Codec()],
  ['minOut', getU64Codec()],
] as const;

/** Data of buy / sell; decoding yields side null for a side byte other than 0/1 (InvalidSide). */
export const BUY_DATA = instructionLayout(BUY_DISCRIMINATOR, TRADE_FIELDS);
export const SELL_DATA = instructionLayout(SELL_DISCRIMINATOR, TRADE_FIELDS);

export type TradeInput = SideAccountsInput & { amount: bigint; minOut: bigint };

export function getBuyInstruction(input: TradeInput): TransactionInstruction {
  return new TransactionInstruction({
    programId: input.programId ?? MARKET_PROGRAM_ID,
    keys: sideInstructionKeys(input),
    data: BUY_DATA.encode(input),
  });
}

export function getSellInstruction(input: TradeInput): TransactionInstruction {
  return new TransactionInstruction({
    programId: input.programId ?? MARKET_PROGRAM_ID,
    keys: sideInstructionKeys(input),
    data: SELL_DATA.encode(input),
  });
}
