/**
 * A book as clients see it: every aggregated level per outcome (best first), best bid/ask and
 * last price per outcome. The REST orderbook endpoint, the WebSocket `book` snapshot and the
 * snapshot the matcher publishes for other nodes all use this one shape.
 */
import type { OrderBook } from '../../../domain/orderbook/index.js';
import type { BookSideView } from './clob-events.js';

export interface BookView {
  marketId: string;
  yes: BookSideView;
  no: BookSideView;
  bestBid: { yes: number | null; no: number | null };
  bestAsk: { yes: number | null; no: number | null };
  lastPrice: { yes: number | null; no: number | null };
  timestamp: number;
  /** The last market event this view includes, once the bus has numbered it. */
  seq?: number;
}

const ALL_LEVELS = 10_000;

export function bookView(marketId: string, book: OrderBook, depth = ALL_LEVELS): BookView {
  const d = book.depth(depth);
  const side = (levels: { priceBps: number; size: bigint }[]) => levels.map((l) => ({ price: l.priceBps, size: l.size.toString() }));
  const top = book.top();
  return {
    marketId,
    yes: { bids: side(d.yes.bids), asks: side(d.yes.asks) },
    no: { bids: side(d.no.bids), asks: side(d.no.asks) },
    bestBid: top.bestBid,
    bestAsk: top.bestAsk,
    lastPrice: top.lastPrice,
    timestamp: Date.now(),
  };
}

/** Cuts a full view down to `depth` levels per side. */
export function limitDepth<T extends BookView>(view: T, depth: number): T {
  const cut = (s: BookSideView) => ({ bids: s.bids.slice(0, depth), asks: s.asks.slice(0, depth) });
  return { ...view, yes: cut(view.yes), no: cut(view.no) };
}
