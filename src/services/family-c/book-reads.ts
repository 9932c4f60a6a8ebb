/**
 * Book reads for the API: the committed view this node's matcher keeps for the markets it owns,
 * else the snapshot the owning matcher published to Redis. Never a scan of the orders table.
 *
 * The `seq` a read shows is the one the WebSocket `book` frame would show (docs/websockets.md,
 * "Sequence numbers"): the market's last event the book includes, counting the events that do
 * not change a book (the keeper's settled trades, a resolution). Only the owning matcher changes
 * books, so once the view's own events are numbered, the market's counter is the view's seq as
 * long as no newer batch of the matcher committed meanwhile (checked after reading the counter).
 */
import type { BookTops } from './book-tops.js';
import { EMPTY_TOP, type BookTopView } from './market.presenter.js';
import type { BookView } from './events/book-snapshot.js';
import type { ClobEventBus } from './events/event-bus.js';
import type { MatcherEventPublisher } from './events/matcher-events.publisher.js';

/** Newer batches committing during every read: past this many tries the view's own seq is shown. */
const MAX_TRIES = 3;
/** How long a REST read waits for Redis to number a view (one publish and one GET, normally under 1 ms). */
const REDIS_WAIT_MS = 1_000;

export class ClobBookReads implements BookTops {
  constructor(
    private readonly bus: ClobEventBus,
    private readonly local?: MatcherEventPublisher,
  ) {}

  /** The book with its sequence number (the last market event it includes); null before any. */
  async view(marketId: string): Promise<(BookView & { seq?: number }) | null> {
    const local = this.local?.latest(marketId);
    if (local) return this.localView(marketId, local);
    const { snapshot, counter } = await this.bus.readSnapshotAtCounter(marketId);
    if (!snapshot) return null;
    return { ...snapshot, seq: Math.max(snapshot.seq, counter ?? 0) };
  }

  async top(marketId: string): Promise<BookTopView> {
    const view = await this.view(marketId);
    return view ? { bestBid: view.bestBid, bestAsk: view.bestAsk, lastPrice: view.lastPrice } : EMPTY_TOP;
  }

  private async localView(marketId: string, first: BookView): Promise<BookView> {
    const publisher = this.local!;
    let view = first;
    for (let i = 0; i < MAX_TRIES; i++) {
      const seqs = await withinMs(Promise.all([publisher.numbered(view), this.bus.readSeq(marketId)]), REDIS_WAIT_MS);
      // Redis away or slow: the view is still the committed book, shown with the seq it had.
      if (!seqs) return view;
      const newest = publisher.latest(marketId);
      if (newest === view || !newest) return { ...view, seq: Math.max(seqs[0] ?? 0, seqs[1] ?? 0) };
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
