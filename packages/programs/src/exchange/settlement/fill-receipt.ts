/**
 * The FillReceipt account, `["fill_receipt", fill_uuid]`: written by `settle` for every fill it
 * settles, so a fill can never settle twice (a second attempt fails with FillAlreadySettled),
 * and holding what the fill moved, as the program computed it (docs/programs.md).
 */
import { PublicKey } from '@solana/web3.js';
import type { FillType } from '../../orderbook/order-types.js';
import { EXCHANGE_ACCOUNT } from '../discriminators.js';
import { bytesOf } from '../../solana/legacy-message.js';

export const FILL_RECEIPT_SIZE = 208;
export const FILL_TYPES = ['direct', 'complementary', 'sell_complementary'] as const satisfies readonly FillType[];

export interface FillReceiptAccount {
  fillUuid: Uint8Array;
  market: PublicKey;
  takerOrder: PublicKey;
  makerOrder: PublicKey;
  fillType: FillType;
  bump: number;
  /** The fill price in the taker's outcome (the maker's limit, converted). */
  priceBps: number;
  quantity: bigint;
  takerUsdc: bigint;
  makerUsdc: bigint;
  takerFee: bigint;
  makerRebate: bigint;
  protocolFee: bigint;
  roundingDust: bigint;
  slot: bigint;
  settledAt: bigint;
}

const AMOUNTS = ['quantity', 'takerUsdc', 'makerUsdc', 'takerFee', 'makerRebate', 'protocolFee', 'roundingDust', 'slot'] as const;

export function encodeFillReceipt(a: FillReceiptAccount): Buffer {
  if (a.fillUuid.length !== 16) throw new RangeError('a fill uuid is 16 bytes');
  const b = Buffer.alloc(FILL_RECEIPT_SIZE);
  EXCHANGE_ACCOUNT.fillReceipt.copy(b, 0);
  b.set(a.fillUuid, 8);
  // The keys' bytes kept per object (toBuffer runs bn.js at every call).
  bytesOf(a.market).copy(b, 24);
  bytesOf(a.takerOrder).copy(b, 56);
  bytesOf(a.makerOrder).copy(b, 88);
  b.writeUInt8(FILL_TYPES.indexOf(a.fillType), 120);
  b.writeUInt8(a.bump, 121);
  b.writeUInt16LE(a.priceBps, 122);
  AMOUNTS.forEach((k, i) => b.writeBigUInt64LE(a[k], 124 + 8 * i));
  b.writeBigInt64LE(a.settledAt, 188);
  return b;
}

export function decodeFillReceipt(data: Uint8Array): FillReceiptAccount {
  const b = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (b.length !== FILL_RECEIPT_SIZE || !b.subarray(0, 8).equals(EXCHANGE_ACCOUNT.fillReceipt))
    throw new RangeError('not an exchange fill receipt');
  const fillType = FILL_TYPES[b.readUInt8(120)];
  if (!fillType) throw new RangeError('corrupt fill receipt');
  const amount = (i: number) => b.readBigUInt64LE(124 + 8 * i);
  return {
    fillUuid: Uint8Array.from(b.subarray(8, 24)),
    market: new PublicKey(b.subarray(24, 56)),
    takerOrder: new PublicKey(b.subarray(56, 88)),
    makerOrder: new PublicKey(b.subarray(88, 120)),
    fillType,
    bump: b.readUInt8(121),
    priceBps: b.readUInt16LE(122),
    quantity: amount(0),
    takerUsdc: amount(1),
    makerUsdc: amount(2),
    takerFee: amount(3),
    makerRebate: amount(4),
    protocolFee: amount(5),
    roundingDust: amount(6),
    slot: amount(7),
    settledAt: b.readBigInt64LE(188),
  };
}
