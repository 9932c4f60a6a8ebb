/**
 * Instruction data layouts (docs/programs.md, "Exchange program"): discriminator + Borsh
 * little-endian arguments, each declared once. Decoders refuse another discriminator, short data
 * and trailing bytes with RangeError; the handler answers InstructionDidNotDeserialize.
 */
import { getU16Codec, getU64Codec, getU8Codec } from '@solana/kit';
import { fixedBytesCodec } from '../../shared/field-codecs.js';
import { instructionLayout } from '../../shared/layout.js';
import { EXCHANGE_IX } from '../discriminators.js';

export type OutcomeByte = 0 | 1;

const FEES = [
  ['takerFeeBps', getU16Codec()],
  ['makerRebateBps', getU16Codec()],
] as const;
const AMOUNT = [['amount', getU64Codec()]] as const;

export const EXCHANGE_DATA = {
  initialize: instructionLayout(EXCHANGE_IX.initialize, FEES),
  setFees: instructionLayout(EXCHANGE_IX.setFees, FEES),
  createMarket: instructionLayout(EXCHANGE_IX.createMarket, [['marketUuid', fixedBytesCodec(16)]]),
  pauseMarket: instructionLayout(EXCHANGE_IX.pauseMarket, []),
  resumeMarket: instructionLayout(EXCHANGE_IX.resumeMarket, []),
  /** outcome: 0 = YES, 1 = NO (a larger byte decodes; the program answers InvalidOutcome). */
  resolveMarket: instructionLayout(EXCHANGE_IX.resolveMarket, [['outcome', getU8Codec()]]),
  deposit: instructionLayout(EXCHANGE_IX.deposit, AMOUNT),
  withdraw: instructionLayout(EXCHANGE_IX.withdraw, AMOUNT),
  split: instructionLayout(EXCHANGE_IX.split, AMOUNT),
  merge: instructionLayout(EXCHANGE_IX.merge, AMOUNT),
  redeem: instructionLayout(EXCHANGE_IX.redeem, [
    ['outcome', getU8Codec()],
    ['amount', getU64Codec()],
  ]),
} as const;

/** Exact-length check for data a layout does not cover; RangeError, like the layouts' decoders. */
export function requireLength(data: Uint8Array, n: number): void {
  if (data.length !== n) throw new RangeError(`instruction data must be ${n} bytes, got ${data.length}`);
}
