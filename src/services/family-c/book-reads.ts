/**
 * Book reads for the API: the committed mirror this node's matcher keeps for the markets it
 * owns (book-mirror.ts: fresh the moment an order is acknowledged), else the book the owning
 * matcher keeps in Redis (event-bus.ts: updated by each batch's deltas in the script that
 * publishes its events, so it is as fresh as the events). Never a scan of the orders table.
 *
 * The `seq` a read shows is the one the WebSocket `book` frame would show (docs/websockets.md,
 * "Sequence numbers"): the market's last event the book includes, counting the events that do
 * not change a book (the keeper's settled trades, a resolution). Only the owning matcher changes
 * books, so once the mirror's own events are numbered, the market's counter is the mirror's seq
 * as long as no newer batch of the matcher committed meanwhile (checked after reading the counter).
 */
import type { BookTops } from './book-tops.js';
import { EMPTY_TOP, type BookTopView } from './market.presenter.js';
import { storedView, type BookView } from './events/book-snapshot.js';
import type { ClobEventBus } from './events/event-bus.js';
import { bookHash } from './events/book-hash.js';
import type { MatcherEventPublisher } from './events/matcher-events.publisher.js';

const ALL_LEVELS = 10_000;
/** Newer batches committing during every read: past this many tries the mirror's own seq is shown. */
const MAX_TRIES = 3;
/** How long a REST read waits for Redis to number the mirror's last publish (one script and one GET, normally under 1 ms). */
const REDIS_WAIT_MS = 1_000;

export class ClobBookReads implements BookTops {
  /** The hash of each market's stored book (another node's), with the head it was computed for. */
  private readonly storedHashes = new Map<string, { head: string; hash: string }>();

  constructor(
    private readonly bus: ClobEventBus,
    private readonly local?: MatcherEventPublisher,
  ) {}

  /**
   * The book (`depth` levels per side) with its sequence number (the last market event it
   * includes) and the hash of all its levels (book-hash.ts); null before any.
   */
  async view(marketId: string, depth = ALL_LEVELS): Promise<(BookView & { seq?: number; hash: string }) | null> {
    const local = this.localSnapshot(marketId, depth);
    if (local) return this.localView(marketId, depth, local);
    const stored = await this.bus.readBook(marketId);
    const view = storedView(marketId, stored);
    if (!view) return null;
    // Another node's book: hashed once per published head (each publish writes a new head).
    let cached = this.storedHashes.get(marketId);
    if (cached?.head !== stored.head) this.storedHashes.set(marketId, (cached = { head: stored.head!, hash: bookHash(view) }));
    return { ...view, hash: cached.hash };
  }

  /** The mirror's view and the hash of its levels, taken together (both of one version). */
  private localSnapshot(marketId: string, depth: number): (BookView & { hash: string }) | undefined {
    const view = this.local?.latest(marketId, depth);
    return view && { ...view, hash: this.local!.latestHash(marketId)! };
  }

  async top(marketId: string): Promise<BookTopView> {
    const local = this.local?.latestTop(marketId);
    if (local) return { bestBid: local.bestBid, bestAsk: local.bestAsk, lastPrice: local.lastPrice };
    const head = await this.bus.readHead(marketId);
    if (head === null) return EMPTY_TOP;
    const { bestBid, bestAsk, lastPrice } = JSON.parse(head) as BookTopView;
    return { bestBid, bestAsk, lastPrice };
  }

  /** Many markets' tops: this node's mirrors, the rest from their heads in one Redis round trip. */
  async tops(marketIds: readonly string[]): Promise<BookTopView[]> {
    const local = marketIds.map((id) => this.local?.latestTop(id));
    const remote = marketIds.filter((_, i) => !local[i]);
    const heads = new Map(remote.map((id, i) => [id, i]));
    const read = await this.bus.readHeads(remote);
    return marketIds.map((id, i) => {
      const mine = local[i];
      if (mine) return { bestBid: { ...mine.bestBid }, bestAsk: { ...mine.bestAsk }, lastPrice: { ...mine.lastPrice } };
      const head = read[heads.get(id)!] ?? null;
      if (head === null) return EMPTY_TOP;
      const { bestBid, bestAsk, lastPrice } = JSON.parse(head) as BookTopView;
      return { bestBid, bestAsk, lastPrice };
    });
  }

  /** The mirror's view with the market's counter as its seq, once the mirror's own events are numbered. */
  private async localView(marketId: string, depth: number, first: BookView & { hash: string }): Promise<BookView & { hash: string }> {
    const publisher = this.local!;
    let view = first;
    for (let i = 0; i < MAX_TRIES; i++) {
      const version = publisher.version(marketId);
      const seqs = await withinMs(Promise.all([publisher.numbered(marketId), this.bus.readSeq(marketId)]), REDIS_WAIT_MS);
      // Redis away or slow: the view is still the committed book, shown with the seq it had.
      if (!seqs) return view;
      if (publisher.version(marketId) === version) return { ...view, seq: Math.max(seqs[0] ?? 0, seqs[1] ?? 0, view.seq ?? 0) };
      const newest = this.localSnapshot(marketId, depth);
      if (!newest) return view; // handed over meanwhile
      view = newest;
    }
    return view;
  }
}

/** The promise's value, or null when it fails or takes longer than `ms`. */
async function withinMs<T>(work: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([work.catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}
