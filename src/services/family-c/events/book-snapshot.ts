/**
 * A book as clients see it: aggregated levels per outcome (best first), best bid/ask and last
 * price per outcome. The REST orderbook endpoint and the WebSocket `book` frames use this one
 * shape, made either from this node's committed mirror (book-mirror.ts) or from the book the
 * owning matcher keeps in Redis (event-bus.ts: a small head and a hash of levels, both changed
 * by each batch's deltas, read together at one sequence number).
 */
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

/** The book as Redis holds it: the head (JSON with `seq`; null before the matcher published), the market's seq counter, the levels hash flattened. */
export interface StoredBook {
  head: string | null;
  counter: string | null;
  levels: string[];
}

type Head = Pick<BookView, 'bestBid' | 'bestAsk' | 'lastPrice' | 'timestamp'> & { seq: number };

/** Levels of a stored book, per side, best first (bids high to low, asks low to high). */
export function storedSides(levels: readonly string[]): Pick<BookView, 'yes' | 'no'> {
  const sides: Record<string, Array<{ price: number; size: string }>> = { 'yes:buy': [], 'yes:sell': [], 'no:buy': [], 'no:sell': [] };
  for (let i = 0; i + 1 < levels.length; i += 2) {
    const field = levels[i]!;
    const cut = field.lastIndexOf(':');
    sides[field.slice(0, cut)]?.push({ price: Number(field.slice(cut + 1)), size: levels[i + 1]! });
  }
  const bids = (l: Array<{ price: number; size: string }>) => l.sort((a, b) => b.price - a.price);
  const asks = (l: Array<{ price: number; size: string }>) => l.sort((a, b) => a.price - b.price);
  return {
    yes: { bids: bids(sides['yes:buy']!), asks: asks(sides['yes:sell']!) },
    no: { bids: bids(sides['no:buy']!), asks: asks(sides['no:sell']!) },
  };
}

/**
 * The REST view of a stored book; null when the matcher never published one. Its seq is
 * max(head's seq, counter), as the WebSocket `book` frame's (ws/book-frame.ts): events published
 * without a head (the keeper's settled trades, a resolution) leave the book as it was.
 */
export function storedView(marketId: string, stored: StoredBook): (BookView & { seq: number }) | null {
  if (stored.head === null) return null;
  const head = JSON.parse(stored.head) as Head;
  const counter = stored.counter !== null && /^\d+$/.test(stored.counter) ? Number(stored.counter) : 0;
  const seq = Math.max(head.seq, counter);
  return {
    marketId,
    ...storedSides(stored.levels),
    bestBid: head.bestBid,
    bestAsk: head.bestAsk,
    lastPrice: head.lastPrice,
    timestamp: head.timestamp,
    seq,
  };
}

/** Cuts a full view down to `depth` levels per side. */
export function limitDepth<T extends BookView>(view: T, depth: number): T {
  const cut = (s: BookSideView) => ({ bids: s.bids.slice(0, depth), asks: s.asks.slice(0, depth) });
  return { ...view, yes: cut(view.yes), no: cut(view.no) };
}
