/**
 * What the matcher tells the metrics (src/infra/clob-metrics.ts): each batch's size, duration and
 * new fills, and at scrape time the markets it owns with the depth of their best levels. Depth
 * carries a market label, so only the BOOK_DEPTH_MARKETS owned books with most resting orders are
 * reported: a node owning thousands of markets still exposes a bounded number of series.
 */
import { BOOK_DEPTH_MARKETS, type BookSideDepth, type ClobMetrics, type OwnedBooksSource } from '../../../infra/clob-metrics.js';
import type { BookLevel } from '../../../domain/orderbook/index.js';
import type { OpOutcome, OwnedMarket } from './matcher-types.js';

/** Levels summed into a side's depth. */
export const DEPTH_LEVELS = 5;

export function observeBatch(metrics: ClobMetrics, operations: number, seconds: number, outcomes: readonly OpOutcome[]): void {
  metrics.batchSize.observe(operations);
  metrics.batchDuration.observe(seconds);
  const fills = outcomes.reduce((n, o) => n + (o.kind === 'place' ? o.fills.length : 0), 0);
  if (fills > 0) metrics.fillTransitions.inc({ from: 'none', to: 'matched' }, fills);
}

export function ownedBooks(markets: ReadonlyMap<string, OwnedMarket>): ReturnType<OwnedBooksSource> {
  const busiest = [...markets.values()].sort((a, b) => b.book.index.size - a.book.index.size).slice(0, BOOK_DEPTH_MARKETS);
  const depth: BookSideDepth[] = [];
  const side = (marketId: string, outcome: 'yes' | 'no', name: 'bid' | 'ask', levels: readonly BookLevel[]) => {
    if (levels.length === 0) return; // an empty side has no best price: its series is absent
    const size = levels.reduce((sum, level) => sum + level.size, 0n);
    depth.push({ marketId, outcome, side: name, bestPriceBps: levels[0]!.priceBps, size: Number(size) });
  };
  for (const m of busiest) {
    const book = m.book.depth(DEPTH_LEVELS);
    for (const outcome of ['yes', 'no'] as const) {
      side(m.marketId, outcome, 'bid', book[outcome].bids);
      side(m.marketId, outcome, 'ask', book[outcome].asks);
    }
  }
  return { owned: markets.size, depth };
}
