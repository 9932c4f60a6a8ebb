import { OrderBook, type OrderRequest } from '../../../src/domain/orderbook/index.js';

let counter = 0;

/** An order request with defaults: gtc limit, far expiry, unique id. */
export function order(
  fields: Partial<OrderRequest> & Pick<OrderRequest, 'owner' | 'side' | 'outcome' | 'priceBps' | 'quantity'>,
): OrderRequest {
  return { id: `o${++counter}`, expiry: 2_000_000_000, ...fields };
}

export function newBook(): OrderBook {
  return new OrderBook({ marketId: 'm1' });
}
