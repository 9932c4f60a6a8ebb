/**
 * Rebuilds a market's book from the database, exactly as it was acknowledged: the resting
 * orders with their time priority (`seq`) and cumulative rounding state (`notional`, `usdc`),
 * the fill sequence and the last price from the newest fill.
 */
import { lastFillOfMarket, normalizeFill } from '../../../../db/repositories/clob-fills.repository.js';
import { normalizeOrder, restingOrdersOfMarket, type OrderRow } from '../../../../db/repositories/clob-orders.repository.js';
import type { Database } from '../../../../db/schema.js';
import type { Kysely, Transaction } from 'kysely';
import { OrderBook, type FeeConfig, type RestingOrder } from '../../../domain/orderbook/index.js';

export function toResting(row: OrderRow): RestingOrder {
  const o = normalizeOrder(row);
  return {
    id: o.id,
    owner: o.owner,
    side: o.side,
    outcome: o.outcome,
    priceBps: o.price_bps,
    quantity: o.quantity,
    remaining: o.remaining,
    expiry: Number(o.expiry),
    postOnly: o.post_only === 1,
    seq: Number(o.seq),
    notional: o.notional,
    usdc: o.usdc,
  };
}

export async function loadBook(db: Kysely<Database> | Transaction<Database>, marketId: string, fees: FeeConfig): Promise<OrderBook> {
  const [rows, last] = await Promise.all([restingOrdersOfMarket(db, marketId), lastFillOfMarket(db, marketId)]);
  const fill = last && normalizeFill(last);
  const lastPrice = fill
    ? fill.outcome === 'yes'
      ? { yes: fill.price_bps, no: 10_000 - fill.price_bps }
      : { yes: 10_000 - fill.price_bps, no: fill.price_bps }
    : { yes: null, no: null };
  return OrderBook.restore({ marketId, fees }, { orders: rows.map(toResting), fillSeq: fill ? Number(fill.seq) : 0, lastPrice });
}
