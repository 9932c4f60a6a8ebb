/**
 * The settle instruction's data (docs/programs.md, "settle"):
 *
 *   discriminator [8]
 *   tag [16]         the sender's own bytes (the keeper: its outbound row's id), which the program
 *                    ignores: two batches of the same orders never compile to identical bytes
 *   order_count u8, then per order: proof_ix u8 (0xFF: the order's account exists, no proof),
 *                                   proof_entry u8 (the signature's entry in that Ed25519 instruction)
 *   fill_count u8, then per fill:   fill_uuid [16], taker u8, maker u8 (indices into the orders),
 *                                   quantity u64
 *
 * Amounts do not travel: the program computes every leg and fee from the orders' signed terms
 * and their on-chain running totals, with the matching engine's own formulas.
 */
import { EXCHANGE_IX } from '../discriminators.js';

export const NO_PROOF = 0xff;
export const SETTLE_ORDER_BYTES = 2;
export const SETTLE_FILL_BYTES = 26;
export const MAX_SETTLE_ITEMS = 255;
export const SETTLE_TAG_BYTES = 16;
const HEADER = 8 + SETTLE_TAG_BYTES;

export interface SettleOrderRef {
  /** Index in the transaction of the Ed25519 instruction proving the order, or NO_PROOF. */
  proofIx: number;
  proofEntry: number;
}

export interface SettleFillData {
  fillUuid: Uint8Array;
  taker: number;
  maker: number;
  quantity: bigint;
}

export interface SettleData {
  tag: Uint8Array;
  orders: SettleOrderRef[];
  fills: SettleFillData[];
}

export function encodeSettleData(d: SettleData): Buffer {
  if (d.orders.length > MAX_SETTLE_ITEMS || d.fills.length > MAX_SETTLE_ITEMS) throw new RangeError('at most 255 orders and 255 fills');
  if (d.tag.length !== SETTLE_TAG_BYTES) throw new RangeError(`a settle tag is ${SETTLE_TAG_BYTES} bytes`);
  const b = Buffer.alloc(HEADER + 1 + SETTLE_ORDER_BYTES * d.orders.length + 1 + SETTLE_FILL_BYTES * d.fills.length);
  EXCHANGE_IX.settle.copy(b, 0);
  b.set(d.tag, 8);
  let at = HEADER;
  b[at++] = d.orders.length;
  for (const o of d.orders) {
    b[at++] = o.proofIx;
    b[at++] = o.proofEntry;
  }
  b[at++] = d.fills.length;
  for (const f of d.fills) {
    if (f.fillUuid.length !== 16) throw new RangeError('a fill uuid is 16 bytes');
    b.set(f.fillUuid, at);
    b[at + 16] = f.taker;
    b[at + 17] = f.maker;
    b.writeBigUInt64LE(f.quantity, at + 18);
    at += SETTLE_FILL_BYTES;
  }
  return b;
}

/** Throws RangeError on data of the wrong length (the handler answers InstructionDidNotDeserialize). */
export function decodeSettleData(data: Buffer): SettleData {
  const need = (n: number) => {
    if (data.length < n) throw new RangeError(`settle data truncated at ${n} bytes`);
  };
  need(HEADER + 1);
  const tag = Uint8Array.from(data.subarray(8, HEADER));
  let at = HEADER;
  const orderCount = data[at++]!;
  need(at + SETTLE_ORDER_BYTES * orderCount + 1);
  const orders: SettleOrderRef[] = [];
  for (let i = 0; i < orderCount; i++, at += 2) orders.push({ proofIx: data[at]!, proofEntry: data[at + 1]! });
  const fillCount = data[at++]!;
  if (data.length !== at + SETTLE_FILL_BYTES * fillCount)
    throw new RangeError(`settle data must be ${at + SETTLE_FILL_BYTES * fillCount} bytes, got ${data.length}`);
  const fills: SettleFillData[] = [];
  for (let i = 0; i < fillCount; i++, at += SETTLE_FILL_BYTES) {
    fills.push({
      fillUuid: Uint8Array.from(data.subarray(at, at + 16)),
      taker: data[at + 16]!,
      maker: data[at + 17]!,
      quantity: data.readBigUInt64LE(at + 18),
    });
  }
  return { tag, orders, fills };
}
