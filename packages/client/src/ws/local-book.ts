/**
 * One market's book as a subscriber keeps it: the `book` snapshot (and its `book_levels` parts),
 * then every market event in `seq` order (docs/websockets.md, "The recovery rule"):
 *
 * - an event with seq <= last is already in the book and is ignored;
 * - seq == last + 1 is applied;
 * - seq > last + 1 is a gap: the book stops taking deltas until the next snapshot, and the
 *   caller asks the daemon for one (a re-subscription).
 *
 * Pure (no socket, no timers) so that the rule is tested on its own. Memory is the book itself:
 * one map entry per price level and side.
 */
import type { BookFrame, BookLevelsFrame, BookSide, BookView, MarketEventFrame, Outcome, OutcomePrices } from './messages.js';

/** What one event did: applied, already in the book, revealed a gap, or waited for a snapshot. */
export type ApplyResult = 'applied' | 'stale' | 'gap' | 'unsynced';

type SideKey = `${Outcome}:${'bids' | 'asks'}`;
const SIDES: readonly SideKey[] = ['yes:bids', 'yes:asks', 'no:bids', 'no:asks'];

export class LocalBook {
  /** The seq of the last event the book includes; null before the first snapshot. */
  seq: number | null = null;
  status: string | null = null;
  bestBid: OutcomePrices = { yes: null, no: null };
  bestAsk: OutcomePrices = { yes: null, no: null };
  lastPrice: OutcomePrices = { yes: null, no: null };
  private levels = new Map<SideKey, Map<number, string>>(SIDES.map((k) => [k, new Map()]));
  /** `book_levels` parts still to come for the current snapshot. */
  private partsLeft = 0;
  /** False until a whole snapshot arrived, and again from a gap until the next snapshot. */
  private inSync = false;

  constructor(readonly marketId: string) {}

  /** True when the book holds a whole snapshot plus every event after it. */
  get synced(): boolean {
    return this.inSync && this.partsLeft === 0;
  }

  /** A `book` frame: the book is replaced. Returns true when it is whole (no parts to come). */
  snapshot(frame: BookFrame): boolean {
    for (const side of this.levels.values()) side.clear();
    this.addSides(frame);
    this.seq = frame.seq;
    this.status = frame.status;
    this.bestBid = { ...frame.bestBid };
    this.bestAsk = { ...frame.bestAsk };
    this.lastPrice = { ...frame.lastPrice };
    this.partsLeft = Math.max(0, (frame.parts ?? 1) - 1);
    this.inSync = true;
    return this.partsLeft === 0;
  }

  /** A `book_levels` part of the snapshot being received. Returns true when it completed the book. */
  addLevels(frame: BookLevelsFrame): boolean {
    if (frame.seq !== this.seq || this.partsLeft === 0) return false; // a part of an older book
    this.addSides(frame);
    this.partsLeft--;
    return this.partsLeft === 0;
  }

  /** One market event, by the recovery rule. */
  apply(event: MarketEventFrame): ApplyResult {
    if (!this.synced || this.seq === null) return 'unsynced';
    if (event.seq <= this.seq) return 'stale';
    if (event.seq !== this.seq + 1) {
      this.inSync = false;
      return 'gap';
    }
    this.seq = event.seq;
    switch (event.event) {
      case 'price_change': {
        const side = this.levels.get(`${event.outcome}:${event.side === 'buy' ? 'bids' : 'asks'}`)!;
        if (event.size === '0') side.delete(event.price);
        else side.set(event.price, event.size);
        break;
      }
      case 'best_bid_ask':
        this.bestBid = { ...event.bestBid };
        this.bestAsk = { ...event.bestAsk };
        break;
      case 'trade': {
        // The matcher's last price: p for the fill's outcome and 10000 − p for the other one.
        const { outcome, priceBps, status } = event.trade;
        if (status === 'matched') {
          this.lastPrice = outcome === 'yes' ? { yes: priceBps, no: 10_000 - priceBps } : { yes: 10_000 - priceBps, no: priceBps };
        }
        break;
      }
      case 'market_resolved':
        this.status = event.status;
        break;
    }
    return 'applied';
  }

  /** Marks the book out of sync (a reconnect): deltas wait for the next snapshot. */
  invalidate(): void {
    this.inSync = false;
  }

  /** One outcome's levels in the REST orderbook's order: bids high to low, asks low to high. */
  side(outcome: Outcome, depth = Infinity): BookSide {
    const sorted = (key: SideKey, descending: boolean) =>
      [...this.levels.get(key)!.entries()]
        .sort(([a], [b]) => (descending ? b - a : a - b))
        .slice(0, depth)
        .map(([price, size]) => ({ price, size }));
    return { bids: sorted(`${outcome}:bids`, true), asks: sorted(`${outcome}:asks`, false) };
  }

  /** The whole book in the REST orderbook's shape. */
  view(depth = Infinity): BookView {
    return {
      marketId: this.marketId,
      seq: this.seq ?? 0,
      status: this.status,
      yes: this.side('yes', depth),
      no: this.side('no', depth),
      bestBid: { ...this.bestBid },
      bestAsk: { ...this.bestAsk },
      lastPrice: { ...this.lastPrice },
    };
  }

  /** Levels held, all sides together. */
  get levelCount(): number {
    let n = 0;
    for (const side of this.levels.values()) n += side.size;
    return n;
  }

  private addSides(frame: { yes: BookSide; no: BookSide }): void {
    for (const outcome of ['yes', 'no'] as const) {
      for (const l of frame[outcome].bids) this.levels.get(`${outcome}:bids`)!.set(l.price, l.size);
      for (const l of frame[outcome].asks) this.levels.get(`${outcome}:asks`)!.set(l.price, l.size);
    }
  }
}
