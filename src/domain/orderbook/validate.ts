/**
 * Checks an order request before it reaches the book, with the service's rules (order-rules.ts):
 * the book guards itself even though the intake already applied them.
 */
import { DUPLICATE_ORDER, INVALID_ORDER, invalidOrder } from './errors.js';
import { checkPrice, checkQuantity, effectiveTimeInForce } from './order-rules.js';
import type { OrderRequest, TimeInForce } from './types.js';

/** Validates a request and returns its effective time in force (a market order is ioc unless asked fok; it never rests). */
export function validateOrder(request: OrderRequest, exists: { has(id: string): boolean }): TimeInForce {
  const orderType = request.orderType ?? 'limit';
  const timeInForce = effectiveTimeInForce(orderType, request.timeInForce, request.postOnly === true);
  if (request.side !== 'buy' && request.side !== 'sell') throw invalidOrder(INVALID_ORDER, 'side must be buy or sell');
  if (request.outcome !== 'yes' && request.outcome !== 'no') throw invalidOrder(INVALID_ORDER, 'outcome must be yes or no');
  checkPrice(request.priceBps, orderType);
  checkQuantity(request.quantity);
  if (exists.has(request.id)) throw invalidOrder(DUPLICATE_ORDER, `order ${request.id} is already on the book`);
  return timeInForce;
}
