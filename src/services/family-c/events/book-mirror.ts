/**
 * One market's book as last committed, kept level by level from the matcher's level deltas:
 * what this node's REST reads answer for the markets its matcher owns. A batch costs its
 * changed levels, never the book's width (issue 25 part 6: a book of 12,500 levels was rebuilt
 * and serialised whole after every batch). Sizes are kept in pages of the ticks in use
 * (tick-pages.ts: a market costs a few kB, not the 320 kB of four dense price grids) and reads
 * walk those pages, skipping the unused ones: a cost per read bounded whatever the book holds. The matcher's own book cannot answer reads: it
 * changes during a batch, before that batch commits.
 */
import type { BookTop, LevelDelta, OrderBook, Outcome, Side } from '../../../domain/orderbook/index.js';
import type { BookView } from './book-snapshot.js';
import type { BookLevelView } from './clob-events.js';
import { bookHash } from './book-hash.js';
import { TickPages } from '../../../domain/orderbook/tick-pages.js';

const TICKS = 10_000;
const SIDES = ['yes:buy', 'yes:sell', 'no:buy', 'no:sell'] as const;
type SideKey = (typeof SIDES)[number];

/** A level's key in the published hash (event-bus.ts) and here: `yes:buy:4000`. */
export const levelField = (outcome: Outcome, side: Side, priceBps: number) => `${outcome}:${side}:${priceBps}`;

export class BookMirror {
  /** Per side, the size of each price (index = bps) as a decimal string; undefined = no level. */
  private readonly sizes = new Map<SideKey, TickPages<string>>(SIDES.map((s) => [s, new TickPages<string>(TICKS)]));
  top: BookTop = { bestBid: { yes: null, no: null }, bestAsk: { yes: null, no: null }, lastPrice: { yes: null, no: null } };
  /** The last market event this state includes, once Redis numbered the batch that made it (undefined until then). */
  seq?: number;
  /** Bumped by every change: a seq answered for an older state is not stamped on a newer one. */
  version = 0;
  /** The hash of the levels at a version: computed by the first read after a change, not per request. */
  private hashed?: { version: number; hash: string };

  /** The whole book, once (a takeover): O(levels). Returns every level as a delta, for a full publication. */
  static of(book: OrderBook): { mirror: BookMirror; levels: LevelDelta[] } {
    const mirror = new BookMirror();
    const levels: LevelDelta[] = [];
    for (const outcome of ['yes', 'no'] as const) {
      for (const side of ['buy', 'sell'] as const) {
        for (const l of book.ladders[outcome][side].walk(TICKS)) levels.push({ outcome, side, priceBps: l.priceBps, size: l.size });
      }
    }
    mirror.apply(levels, book.top());
    return { mirror, levels };
  }

  /** Applies a committed batch's level deltas (in order) and the book's top after it. */
  apply(levels: readonly LevelDelta[], top: BookTop): void {
    for (const l of levels) this.sizes.get(`${l.outcome}:${l.side}`)!.set(l.priceBps, l.size === 0n ? undefined : l.size.toString());
    this.top = { bestBid: { ...top.bestBid }, bestAsk: { ...top.bestAsk }, lastPrice: { ...top.lastPrice } };
    this.seq = undefined;
    this.version++;
  }

  /** bookHash of every level (one walk of the grid per change of the book, at most). */
  hash(): string {
    if (this.hashed?.version !== this.version) this.hashed = { version: this.version, hash: bookHash(this.view('', TICKS)) };
    return this.hashed.hash;
  }

  /** The book as clients see it, `depth` levels per side (best first). */
  view(marketId: string, depth: number): BookView {
    const side = (key: SideKey, descending: boolean): BookLevelView[] =>
      this.sizes.get(key)!.collect(descending, depth, (size, price) => ({ price, size }));
    return {
      marketId,
      yes: { bids: side('yes:buy', true), asks: side('yes:sell', false) },
      no: { bids: side('no:buy', true), asks: side('no:sell', false) },
      bestBid: { ...this.top.bestBid },
      bestAsk: { ...this.top.bestAsk },
      lastPrice: { ...this.top.lastPrice },
      timestamp: Date.now(),
      ...(this.seq !== undefined ? { seq: this.seq } : {}),
    };
  }
}
