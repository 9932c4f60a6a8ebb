/**
 * The 92-byte order message a trader's wallet signs (public facts, Family C), little-endian:
 *
 *   offset  size  field
 *        0    32  market pubkey
 *       32    32  owner pubkey
 *       64     1  side      u8  (0 buy, 1 sell)
 *       65     1  outcome   u8  (0 yes, 1 no)
 *       66     2  priceBps  u16
 *       68     8  quantity  u64 (raw units)
 *       76     8  nonce     u64
 *       84     8  expiry    i64 (unix seconds)
 *
 * The wallet signs the UTF-8 text `PMX Order:\n` + lowercase hex of these bytes (embedded
 * wallets refuse to sign bytes that look like a transaction). Verification is the shared
 * signed-message verifier's job; this module only produces and parses the bytes and the text.
 */
import { I64_MAX, I64_MIN, U64_MAX } from '../shared/integers.js';
import type { Outcome, Side } from './order-types.js';

export const ORDER_MESSAGE_LENGTH = 92;
export const ORDER_TEXT_PREFIX = 'PMX Order:\n';

export interface OrderMessage {
  market: Uint8Array;
  owner: Uint8Array;
  side: Side;
  outcome: Outcome;
  priceBps: number;
  quantity: bigint;
  nonce: bigint;
  expiry: bigint;
}

export class OrderMessageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OrderMessageError';
  }
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new OrderMessageError(message);
}

export function encodeOrderMessage(message: OrderMessage): Uint8Array {
  check(message.market.length === 32, 'market must be 32 bytes');
  check(message.owner.length === 32, 'owner must be 32 bytes');
  check(Number.isInteger(message.priceBps) && message.priceBps >= 0 && message.priceBps <= 0xffff, 'priceBps must be a u16');
  check(message.quantity >= 0n && message.quantity <= U64_MAX, 'quantity must be a u64');
  check(message.nonce >= 0n && message.nonce <= U64_MAX, 'nonce must be a u64');
  check(message.expiry >= I64_MIN && message.expiry <= I64_MAX, 'expiry must be an i64');
  const bytes = new Uint8Array(ORDER_MESSAGE_LENGTH);
  const view = new DataView(bytes.buffer);
  bytes.set(message.market, 0);
  bytes.set(message.owner, 32);
  view.setUint8(64, message.side === 'buy' ? 0 : 1);
  view.setUint8(65, message.outcome === 'yes' ? 0 : 1);
  view.setUint16(66, message.priceBps, true);
  view.setBigUint64(68, message.quantity, true);
  view.setBigUint64(76, message.nonce, true);
  view.setBigInt64(84, message.expiry, true);
  return bytes;
}

export function decodeOrderMessage(bytes: Uint8Array): OrderMessage {
  check(bytes.length === ORDER_MESSAGE_LENGTH, `order message must be ${ORDER_MESSAGE_LENGTH} bytes, got ${bytes.length}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const side = view.getUint8(64);
  const outcome = view.getUint8(65);
  check(side <= 1, `side byte must be 0 or 1, got ${side}`);
  check(outcome <= 1, `outcome byte must be 0 or 1, got ${outcome}`);
  return {
    market: bytes.slice(0, 32),
    owner: bytes.slice(32, 64),
    side: side === 0 ? 'buy' : 'sell',
    outcome: outcome === 0 ? 'yes' : 'no',
    priceBps: view.getUint16(66, true),
    quantity: view.getBigUint64(68, true),
    nonce: view.getBigUint64(76, true),
    expiry: view.getBigInt64(84, true),
  };
}

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** The exact text the wallet signs, UTF-8 encoded by the verifier. */
export function orderSigningText(message: OrderMessage | Uint8Array): string {
  const bytes = message instanceof Uint8Array ? message : encodeOrderMessage(message);
  check(bytes.length === ORDER_MESSAGE_LENGTH, `order message must be ${ORDER_MESSAGE_LENGTH} bytes`);
  return ORDER_TEXT_PREFIX + toHex(bytes);
}

export function orderSigningBytes(message: OrderMessage | Uint8Array): Uint8Array {
  return new TextEncoder().encode(orderSigningText(message));
}

/** `orderSigningBytes(message).length` without building it: the ASCII prefix and two hex digits per byte (195). */
export function orderSigningLength(message: Uint8Array): number {
  return ORDER_TEXT_PREFIX.length + 2 * message.length;
}
