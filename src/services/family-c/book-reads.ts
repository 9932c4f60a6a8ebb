/**
 * Book reads for the API: the committed mirror this node's matcher keeps for the markets it
 * owns (book-mirror.ts: fresh the moment an order is acknowledged), else the book the owning
 * matcher keeps in Redis (event-bus.ts: updated by each batch's deltas in the script that
 * publishes its events, so it is as fresh as the events). Never a scan of the orders table.
 */
import type { BookTops } from './book-tops.js';
import { EMPTY_TOP, type BookTopView } from './market.presenter.js';
import { storedView, type BookView } from './events/book-snapshot.js';
import type { ClobEventBus } from './events/event-bus.js';
import type { MatcherEventPublisher } from './events/matcher-events.publisher.js';

const ALL_LEVELS = 10_000;

export class ClobBookReads implements BookTops {
  constructor(
    private readonly bus: ClobEventBus,
    private readonly local?: MatcherEventPublisher,
  ) {}

  /** The book (`depth` levels per side) with its sequence number (the last market event it includes); null before any. */
  async view(marketId: string, depth = ALL_LEVELS): Promise<(BookView & { seq?: number }) | null> {
    const local = this.local?.latest(marketId, depth);
    if (local) return local;
    return storedView(marketId, await this.bus.readBook(marketId));
  }

  async top(marketId: string): Promise<BookTopView> {
    const local = this.local?.latestTop(marketId);
    if (local) return { bestBid: local.bestBid, bestAsk: local.bestAsk, lastPrice: local.lastPrice };
    const head = await this.bus.readHead(marketId);
    if (head === null) return EMPTY_TOP;
    const { bestBid, bestAsk, lastPrice } = JSON.parse(head) as BookTopView;
    return { bestBid, bestAsk, lastPrice };
  }
}
