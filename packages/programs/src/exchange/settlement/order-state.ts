/**
 * The OrderState account, `["order", owner, nonce u64 LE]`: created by `settle` the first time an
 * order settles (after its owner's signature was checked through the Ed25519 program), it keeps
 * the signed 92-byte message so later fills need no signature, and the order's cumulative
 * amounts, the same running totals the matching engine rounds against (docs/programs.md).
 */
import { decodeOrderMessage, type OrderMessage } from '../../orderbook/order-message.js';
import { U64_MAX } from '../../shared/integers.js';
import { EXCHANGE_ACCOUNT } from '../discriminators.js';

export const ORDER_STATE_SIZE = 168;
const MESSAGE_AT = 8;
const U128_MAX = (1n << 128n) - 1n;

export interface OrderStateAccount {
  /** The signed order message (92 bytes). */
  message: Uint8Array;
  /** Σ settled quantity; never above the message's quantity. */
  filled: bigint;
  /** Σ quantity × price (bps, in the order's outcome) of its settled fills. */
  notional: bigint;
  /** USDC principal paid (buy) or received (sell) so far, before fees. */
  usdc: bigint;
  /** Principal of the fills where this order was the taker: the base of its cumulative taker fee. */
  takerUsdc: bigint;
  feesPaid: bigint;
  rebates: bigint;
  fills: number;
  bump: number;
}

export function encodeOrderState(a: OrderStateAccount): Buffer {
  if (a.message.length !== 92) throw new RangeError('an order message is 92 bytes');
  if (a.notional < 0n || a.notional > U128_MAX) throw new RangeError('notional must fit a u128');
  const b = Buffer.alloc(ORDER_STATE_SIZE);
  EXCHANGE_ACCOUNT.orderState.copy(b, 0);
  b.set(a.message, MESSAGE_AT);
  b.writeBigUInt64LE(a.filled, 100);
  b.writeBigUInt64LE(a.notional & U64_MAX, 108);
  b.writeBigUInt64LE(a.notional >> 64n, 116);
  b.writeBigUInt64LE(a.usdc, 124);
  b.writeBigUInt64LE(a.takerUsdc, 132);
  b.writeBigUInt64LE(a.feesPaid, 140);
  b.writeBigUInt64LE(a.rebates, 148);
  b.writeUInt32LE(a.fills, 156);
  b.writeUInt8(a.bump, 160);
  return b;
}

export function decodeOrderState(data: Uint8Array): OrderStateAccount {
  const b = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (b.length !== ORDER_STATE_SIZE || !b.subarray(0, 8).equals(EXCHANGE_ACCOUNT.orderState))
    throw new RangeError('not an exchange order account');
  return {
    message: Uint8Array.from(b.subarray(MESSAGE_AT, MESSAGE_AT + 92)),
    filled: b.readBigUInt64LE(100),
    notional: b.readBigUInt64LE(108) | (b.readBigUInt64LE(116) << 64n),
    usdc: b.readBigUInt64LE(124),
    takerUsdc: b.readBigUInt64LE(132),
    feesPaid: b.readBigUInt64LE(140),
    rebates: b.readBigUInt64LE(148),
    fills: b.readUInt32LE(156),
    bump: b.readUInt8(160),
  };
}

/** The decoded message of a stored order (it was validated when the account was created). */
export function orderStateMessage(a: OrderStateAccount): OrderMessage {
  return decodeOrderMessage(a.message);
}
