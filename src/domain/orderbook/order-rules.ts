/**
 * The service's order rules beyond the engine's (public facts "Order rules", plus the choices
 * docs/family-c.md explains):
 * - every order expires within 30 days (the public facts say so of GTC; IOC, FOK and market
 *   orders get the same cap because their expiry is stored in a signed 64-bit column and converted
 *   to a number on the way to the matcher: an unbounded one would overflow there and fail the
 *   whole matcher batch, not just this order);
 * - an order stops matching EXPIRY_MARGIN_SEC before its expiry, and an order arriving with less
 *   than that left is refused: settlement is asynchronous and the chain refuses an expired order,
 *   so a fill matched in the last seconds of an order's life could otherwise never settle;
 * - quantities are at most 10^14 raw units (100,000,000 tokens), so that an order's notional
 *   (quantity × price in bps) always fits a signed 64-bit column;
 * - at most 100 resting orders per owner and market, 500 per owner overall.
 */
import { DomainError } from '../errors.js';
import type { TimeInForce } from './types.js';

export const MAX_GTC_LIFETIME_SEC = 30 * 86_400;
export const EXPIRY_MARGIN_SEC = 60;
export const MAX_ORDER_QUANTITY = 100_000_000_000_000n;
export const RESTING_LIMIT_PER_MARKET = 100;
export const RESTING_LIMIT_PER_OWNER = 500;

/**
 * Refuses an expiry that is too close (ORDER_EXPIRED) or too far (INVALID_ORDER), whatever the
 * time in force. Compared as bigints: after this an expiry is a safe integer of seconds.
 */
export function checkExpiry(expiry: bigint, nowSec: number, timeInForce: TimeInForce): void {
  if (expiry <= BigInt(nowSec + EXPIRY_MARGIN_SEC)) {
    throw new DomainError('invalid', 'ORDER_EXPIRED', `expiry ${expiry} is past or less than ${EXPIRY_MARGIN_SEC} s away (now ${nowSec})`);
  }
  if (expiry > BigInt(nowSec + MAX_GTC_LIFETIME_SEC)) {
    throw new DomainError('invalid', 'INVALID_ORDER', `a ${timeInForce} order must expire within 30 days (expiry ≤ ${nowSec + MAX_GTC_LIFETIME_SEC})`);
  }
}

export function checkQuantity(quantity: bigint): void {
  if (quantity < 1n || quantity > MAX_ORDER_QUANTITY) {
    throw new DomainError('invalid', 'INVALID_ORDER', `quantity must be 1 to ${MAX_ORDER_QUANTITY} raw units`);
  }
}

/** Whether one more resting order is allowed (checked for orders that can rest: gtc limits). */
export function checkRestingLimits(counts: { total: number; inMarket: number }): void {
  if (counts.inMarket >= RESTING_LIMIT_PER_MARKET) {
    throw new DomainError('invalid', 'TOO_MANY_ORDERS', `at most ${RESTING_LIMIT_PER_MARKET} resting orders per market; cancel some first`);
  }
  if (counts.total >= RESTING_LIMIT_PER_OWNER) {
    throw new DomainError('invalid', 'TOO_MANY_ORDERS', `at most ${RESTING_LIMIT_PER_OWNER} resting orders per owner; cancel some first`);
  }
}

/** A market's minimum order size when its creator names none: one token (outcome-token raw units). */
export const DEFAULT_MIN_ORDER_SIZE = 1_000_000n;

/**
 * Refuses an order below its market's minimum size (issue 25, "Dust"). A fill uses up the
 * smaller remainder of its two orders, so a market's fills never outnumber its orders, and every
 * order now commits at least minOrderSize: one small deposit cannot queue hundreds of fills. A
 * fill may still be smaller than the minimum (the last part of a partly filled order).
 */
export function checkMinOrderSize(quantity: bigint, minOrderSize: bigint): void {
  if (quantity < minOrderSize) {
    throw new DomainError('invalid', 'INVALID_ORDER', `quantity ${quantity} is below this market's minOrderSize of ${minOrderSize} raw units`);
  }
}
