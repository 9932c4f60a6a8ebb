/**
 * buy(side u8, amount_in u64, min_out u64) and sell(side u8, tokens_in u64, min_out u64): the
 * same data layout and account list. `min_out` is the user's limit: the program fails with
 * SlippageExceeded rather than give fewer tokens (buy) or less USDC (sell).
 */
import { TransactionInstruction } from '@solana/web3.js';
import type { Side } from '../../../../domain/amm/index.js';
import { BorshReader, BorshWriter } from '../codec.js';
import { instructionDiscriminator } from '../discriminator.js';
import { MARKET_PROGRAM_ID } from '../program-id.js';
import { decodeSide, encodeSide, sideInstructionKeys, type SideAccountsInput } from './common.js';

export const BUY_DISCRIMINATOR = instructionDiscriminator('buy');
export const SELL_DISCRIMINATOR = instructionDiscriminator('sell');

export interface TradeArgs {
  side: Side;
  /** buy: raw USDC to spend; sell: raw tokens to sell. */
  amount: bigint;
  /** buy: minimum tokens out; sell: minimum USDC out. */
  minOut: bigint;
}

export function encodeTradeData(discriminator: Buffer, a: TradeArgs): Buffer {
  return new BorshWriter().bytes(discriminator).u8(encodeSide(a.side)).u64(a.amount).u64(a.minOut).toBuffer();
}

/** Returns null for a side byte other than 0/1 (the program answers InvalidSide). */
export function decodeTradeData(data: Buffer): { side: Side | null; amount: bigint; minOut: bigint } {
  const r = new BorshReader(data, 8);
  const out = { side: decodeSide(r.u8()), amount: r.u64(), minOut: r.u64() };
  if (!r.done()) throw new RangeError('trailing bytes');
  return out;
}

export type TradeInput = SideAccountsInput & { amount: bigint; minOut: bigint };

export function getBuyInstruction(input: TradeInput): TransactionInstruction {
  return new TransactionInstruction({
    programId: input.programId ?? MARKET_PROGRAM_ID,
    keys: sideInstructionKeys(input),
    data: encodeTradeData(BUY_DISCRIMINATOR, input),
  });
}

export function getSellInstruction(input: TradeInput): TransactionInstruction {
  return new TransactionInstruction({
    programId: input.programId ?? MARKET_PROGRAM_ID,
    keys: sideInstructionKeys(input),
    data: encodeTradeData(SELL_DISCRIMINATOR, input),
  });
}
