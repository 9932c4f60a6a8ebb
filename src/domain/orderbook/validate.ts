/** Checks an order request against the public order rules before it reaches the book. */
import { DUPLICATE_ORDER, INVALID_ORDER, invalidOrder } from './errors.js';
import { MAX_ORDER_QUANTITY } from './order-rules.js';
import { MAX_LIMIT_PRICE, MAX_MARKET_PRICE, type OrderRequest, type TimeInForce } from './types.js';

/** Validates a request and returns its effective time in force (a market order is ioc unless asked fok; it never rests). */
export function validateOrder(request: OrderRequest, exists: { has(id: string): boolean }): TimeInForce {
  const orderType = request.orderType ?? 'limit';
  if (orderType !== 'limit' && orderType !== 'market') throw invalidOrder(INVALID_ORDER, `unknown orderType ${String(orderType)}`);
  if (orderType === 'market' && request.timeInForce === 'gtc') throw invalidOrder(INVALID_ORDER, 'a market order cannot be gtc (it never rests)');
  const timeInForce = orderType === 'market' ? (request.timeInForce === 'fok' ? 'fok' : 'ioc') : (request.timeInForce ?? 'gtc');
  if (timeInForce !== 'gtc' && timeInForce !== 'ioc' && timeInForce !== 'fok') throw invalidOrder(INVALID_ORDER, `unknown timeInForce ${String(timeInForce)}`);
  if (request.side !== 'buy' && request.side !== 'sell') throw invalidOrder(INVALID_ORDER, 'side must be buy or sell');
  if (request.outcome !== 'yes' && request.outcome !== 'no') throw invalidOrder(INVALID_ORDER, 'outcome must be yes or no');
  const max = orderType === 'market' ? MAX_MARKET_PRICE : MAX_LIMIT_PRICE;
  if (!Number.isInteger(request.priceBps) || request.priceBps < 1 || request.priceBps > max) {
    throw invalidOrder(INVALID_ORDER, `priceBps must be an integer within 1..${max} for a ${orderType} order`);
  }
  // The public cap (order-rules.ts) also keeps the book's arithmetic exact: a node's commitment
  // is a number (exact below 2^53), and owners' totals and level sizes add deltas below 2^52
  // (wide-totals.ts).
  if (typeof request.quantity !== 'bigint' || request.quantity <= 0n || request.quantity > MAX_ORDER_QUANTITY) {
    throw invalidOrder(INVALID_ORDER, `quantity must be 1 to ${MAX_ORDER_QUANTITY} raw units`);
  }
  const postOnly = request.postOnly === true;
  if (postOnly && (orderType !== 'limit' || timeInForce !== 'gtc')) throw invalidOrder(INVALID_ORDER, 'postOnly needs a gtc limit order');
  if (exists.has(request.id)) throw invalidOrder(DUPLICATE_ORDER, `order ${request.id} is already on the book`);
  return timeInForce;
}
