/**
 * Book reads for the API: the committed view this node's matcher keeps for the markets it owns,
 * else the snapshot the owning matcher published to Redis. Never a scan of the orders table.
 */
import type { BookTops } from './book-tops.js';
import { EMPTY_TOP, type BookTopView } from './market.presenter.js';
import type { BookView } from './events/book-snapshot.js';
import type { ClobEventBus } from './events/event-bus.js';
import type { MatcherEventPublisher } from './events/matcher-events.publisher.js';

export class ClobBookReads implements BookTops {
  constructor(
    private readonly bus: ClobEventBus,
    private readonly local?: MatcherEventPublisher,
  ) {}

  /** The book with its sequence number (the last market event it includes); null before any. */
  async view(marketId: string): Promise<(BookView & { seq?: number }) | null> {
    const local = this.local?.latest(marketId);
    if (local) return local;
    return (await this.bus.readSnapshot(marketId)) as (BookView & { seq: number }) | null;
  }

  async top(marketId: string): Promise<BookTopView> {
    const view = await this.view(marketId);
    return view ? { bestBid: view.bestBid, bestAsk: view.bestAsk, lastPrice: view.lastPrice } : EMPTY_TOP;
  }
}
