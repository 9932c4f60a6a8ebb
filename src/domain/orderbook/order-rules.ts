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
 * This module is the one place these rules and the order-type rules are checked: the API's
 * intake (order-intake.ts) and the book's own guard (validate.ts) both call it.
 */
import { DomainError } from '../errors.js';
import { MAX_LIMIT_PRICE, MAX_MARKET_PRICE, type OrderType, type TimeInForce } from './types.js';

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
  checkNotExpiring(expiry, nowSec);
  if (expiry > BigInt(nowSec + MAX_GTC_LIFETIME_SEC)) {
    throw new DomainError(
      'invalid',
      'INVALID_ORDER',
      `a ${timeInForce} order must expire within 30 days (expiry ≤ ${nowSec + MAX_GTC_LIFETIME_SEC})`,
    );
  }
}

/**
 * An order's effective time in force, refusing the combinations that cannot be honoured: a market
 * order never rests (ioc unless asked fok, never gtc, never downgraded from fok), and postOnly
 * needs a gtc limit order.
 */
export function effectiveTimeInForce(orderType: OrderType, timeInForce: TimeInForce | undefined, postOnly: boolean): TimeInForce {
  if (orderType !== 'limit' && orderType !== 'market') throw invalidOrder(`unknown orderType ${String(orderType)}`);
  if (orderType === 'market' && timeInForce === 'gtc')
    throw invalidOrder('a market order cannot be gtc (it never rests): use ioc or a limit order');
  const effective = orderType === 'market' ? (timeInForce === 'fok' ? 'fok' : 'ioc') : (timeInForce ?? 'gtc');
  if (effective !== 'gtc' && effective !== 'ioc' && effective !== 'fok') throw invalidOrder(`unknown timeInForce ${String(effective)}`);
  if (postOnly && (orderType !== 'limit' || effective !== 'gtc')) throw invalidOrder('postOnly needs a gtc limit order');
  return effective;
}

/** A limit price is 1..9999 bps; a market order's worst price may be 10000 (it takes at any price). */
export function checkPrice(priceBps: number, orderType: OrderType): void {
  const max = orderType === 'market' ? MAX_MARKET_PRICE : MAX_LIMIT_PRICE;
  if (!Number.isInteger(priceBps) || priceBps < 1 || priceBps > max)
    throw invalidOrder(`priceBps must be an integer within 1..${max} for a ${orderType} order`);
}

/**
 * 1..10^14 raw units. The cap also keeps the book's arithmetic exact: a node's commitment is a
 * number (exact below 2^53), and owners' totals and level sizes add deltas below 2^52
 * (wide-totals.ts).
 */
/**
 * Refuses (ORDER_EXPIRED) an order with less than EXPIRY_MARGIN_SEC left: at intake, and again
 * when the matcher takes it (it may have waited in the queue).
 */
export function checkNotExpiring(expiry: bigint | number, nowSec: number): void {
  if (BigInt(expiry) <= BigInt(nowSec + EXPIRY_MARGIN_SEC)) {
    throw new DomainError('invalid', 'ORDER_EXPIRED', `expiry ${expiry} is past or less than ${EXPIRY_MARGIN_SEC} s away (now ${nowSec})`);
  }
}

export function checkQuantity(quantity: bigint): void {
  if (typeof quantity !== 'bigint' || quantity < 1n || quantity > MAX_ORDER_QUANTITY) {
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

function invalidOrder(message: string): DomainError {
  return new DomainError('invalid', 'INVALID_ORDER', message);
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
    throw new DomainError(
      'invalid',
      'INVALID_ORDER',
      `quantity ${quantity} is below this market's minOrderSize of ${minOrderSize} raw units`,
    );
  }
}
