/**
 * Turns what each committed matcher batch did into events on the bus (clob-events.ts) and
 * refreshes the published snapshot of every book it touched. Runs after the commit, never before:
 * nothing is announced that a crash could take back.
 */
import type { Logger } from 'pino';
import type { MatcherEventSink, OpOutcome, OwnedMarket } from '../matcher/matcher-types.js';
import { bookView, type BookView } from './book-snapshot.js';
import type { BatchViews } from '../orders/batch-views.js';
import { levelEvent, type MarketEvent } from './clob-events.js';
import type { ClobEventBus } from './event-bus.js';
import { userEventsOf } from './user-events.js';

type Top = { bestBid: unknown; bestAsk: unknown };
const sameTop = (a: Top | undefined, b: Top) => a !== undefined && JSON.stringify(a) === JSON.stringify(b);

export class MatcherEventPublisher implements MatcherEventSink {
  private readonly lastTop = new Map<string, Top>();
  /** The newest committed view of each book this node owns (reads never see an uncommitted batch). */
  private readonly views = new Map<string, BookView>();
  /** Each view's publish, for REST reads that need its seq (book-reads.ts). */
  private readonly numbering = new WeakMap<BookView, Promise<number | null>>();

  constructor(
    private readonly bus: ClobEventBus,
    private readonly log: Logger,
    /** Markets whose batch produced fills (the settlement keeper plans them at once). */
    private readonly filled?: (marketIds: string[]) => void,
  ) {}

  committed(outcomes: readonly OpOutcome[], books: ReadonlyMap<string, OwnedMarket>, views: BatchViews): void {
    const market = new Map<string, MarketEvent[]>();
    const user = userEventsOf(outcomes, views, Date.now());
    const push = (marketId: string, e: MarketEvent) => {
      const list = market.get(marketId) ?? [];
      list.push(e);
      market.set(marketId, list);
    };
    for (const o of outcomes) {
      const marketId = o.kind === 'place' ? o.order.marketId : o.marketId;
      if (!market.has(marketId)) market.set(marketId, []);
      if (o.kind === 'place') {
        for (const f of o.fills) {
          push(marketId, {
            event: 'trade', marketId,
            trade: { id: f.id, marketId, outcome: f.outcome, priceBps: f.priceBps, quantity: f.quantity.toString(), takerSide: f.takerSide, fillType: f.fillType, status: 'matched', matchedAt: f.matchedAt },
          });
        }
      }
      for (const l of o.levels) push(marketId, levelEvent(marketId, l));
    }
    for (const [marketId, events] of market) {
      const owned = books.get(marketId);
      if (!owned) continue;
      const view = bookView(marketId, owned.book);
      this.views.set(marketId, view);
      const top = { bestBid: view.bestBid, bestAsk: view.bestAsk };
      if (!sameTop(this.lastTop.get(marketId), top)) {
        events.push({ event: 'best_bid_ask', marketId, ...top } as MarketEvent);
        this.lastTop.set(marketId, top);
      }
      this.publish(marketId, events, view);
    }
    void this.bus.publishUser(user).catch((err) => this.log.warn({ err }, 'user events not published'));
    const withFills = [...new Set(outcomes.flatMap((o) => (o.kind === 'place' && o.fills.length > 0 ? [o.order.marketId] : [])))];
    if (withFills.length > 0) this.filled?.(withFills);
  }

  /** A market was (re)taken by this node: publish its snapshot so other nodes read it. */
  announce(marketId: string, owned: OwnedMarket): void {
    const view = bookView(marketId, owned.book);
    this.views.set(marketId, view);
    this.lastTop.set(marketId, { bestBid: view.bestBid, bestAsk: view.bestAsk });
    this.publish(marketId, [], view);
  }

  /** Publishes, then stamps the local view with the sequence number Redis gave its last event. */
  private publish(marketId: string, events: MarketEvent[], view: BookView): void {
    const numbered = this.bus.publishMarket(marketId, events, { ...view }).then((seq) => {
      if (seq !== null && this.views.get(marketId) === view) view.seq = seq;
      return seq;
    });
    this.numbering.set(view, numbered);
  }

  latest(marketId: string): BookView | undefined {
    return this.views.get(marketId);
  }

  /** The seq Redis gave the last event of `view` (null: its publish failed), once its publish is done. */
  numbered(view: BookView): Promise<number | null> {
    return this.numbering.get(view) ?? Promise.resolve(view.seq ?? null);
  }

  forget(marketId: string): void {
    this.views.delete(marketId);
    this.lastTop.delete(marketId);
  }
}
