/** Instruction data codecs: discriminator + Borsh little-endian arguments (docs/programs.md). */
import { EXCHANGE_IX } from '../discriminators.js';

export type OutcomeByte = 0 | 1;

export function feesData(tag: Buffer, takerFeeBps: number, makerRebateBps: number): Buffer {
  const b = Buffer.alloc(12);
  tag.copy(b, 0);
  b.writeUInt16LE(takerFeeBps, 8);
  b.writeUInt16LE(makerRebateBps, 10);
  return b;
}

export function decodeFeesData(data: Buffer): { takerFeeBps: number; makerRebateBps: number } {
  return { takerFeeBps: data.readUInt16LE(8), makerRebateBps: data.readUInt16LE(10) };
}

export function amountData(tag: Buffer, amount: bigint): Buffer {
  const b = Buffer.alloc(16);
  tag.copy(b, 0);
  b.writeBigUInt64LE(amount, 8);
  return b;
}

export function decodeAmountData(data: Buffer): bigint {
  return data.readBigUInt64LE(8);
}

export function redeemData(outcome: OutcomeByte, amount: bigint): Buffer {
  const b = Buffer.alloc(17);
  EXCHANGE_IX.redeem.copy(b, 0);
  b.writeUInt8(outcome, 8);
  b.writeBigUInt64LE(amount, 9);
  return b;
}

export function decodeRedeemData(data: Buffer): { outcome: number; amount: bigint } {
  return { outcome: data.readUInt8(8), amount: data.readBigUInt64LE(9) };
}

export function outcomeData(tag: Buffer, outcome: OutcomeByte): Buffer {
  const b = Buffer.alloc(9);
  tag.copy(b, 0);
  b.writeUInt8(outcome, 8);
  return b;
}

/** Readers throw RangeError on short data; the handler maps that to InstructionDidNotDeserialize. */
export function requireLength(data: Buffer, n: number): void {
  if (data.length !== n) throw new RangeError(`instruction data must be ${n} bytes, got ${data.length}`);
}
