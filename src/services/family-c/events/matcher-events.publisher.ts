/**
 * Turns what each committed matcher batch did into events on the bus (clob-events.ts) and
 * refreshes the published snapshot of every book it touched. Runs after the commit, never before:
 * nothing is announced that a crash could take back.
 */
import type { Logger } from 'pino';
import type { MatcherEventSink, OpOutcome, OwnedMarket } from '../matcher/matcher-types.js';
import { bookView, type BookView } from './book-snapshot.js';
import { levelEvent, orderEventView, type MarketEvent, type UserEvent } from './clob-events.js';
import type { ClobEventBus } from './event-bus.js';

type Top = { bestBid: unknown; bestAsk: unknown };
const sameTop = (a: Top | undefined, b: Top) => a !== undefined && JSON.stringify(a) === JSON.stringify(b);

export class MatcherEventPublisher implements MatcherEventSink {
  private readonly lastTop = new Map<string, Top>();
  /** The newest committed view of each book this node owns (reads never see an uncommitted batch). */
  private readonly views = new Map<string, BookView>();

  constructor(
    private readonly bus: ClobEventBus,
    private readonly log: Logger,
    /** Markets whose batch produced fills (the settlement keeper plans them at once). */
    private readonly filled?: (marketIds: string[]) => void,
  ) {}

  committed(outcomes: readonly OpOutcome[], books: ReadonlyMap<string, OwnedMarket>): void {
    const market = new Map<string, MarketEvent[]>();
    const user: UserEvent[] = [];
    const now = Date.now();
    const push = (marketId: string, e: MarketEvent) => {
      const list = market.get(marketId) ?? [];
      list.push(e);
      market.set(marketId, list);
    };
    for (const o of outcomes) {
      const marketId = o.kind === 'place' ? o.order.marketId : o.marketId;
      if (!market.has(marketId)) market.set(marketId, []);
      if (o.kind === 'place') {
        const taker = { id: o.order.id, owner: o.order.owner, side: o.order.side, outcome: o.order.outcome, priceBps: o.order.priceBps, quantity: BigInt(o.order.quantity), remaining: o.outcome.remaining };
        user.push({ event: 'order:placed', owner: o.order.owner, marketId, order: orderEventView(taker, marketId, 'open', o.order), timestamp: now });
        if (o.outcome.status !== 'open') user.push({ event: `order:${o.outcome.status}`, owner: o.order.owner, marketId, order: orderEventView(taker, marketId, o.outcome.status, o.order), timestamp: now });
        for (const m of o.makersChanged) {
          const status = m.remaining === 0n ? 'filled' : 'partially_filled';
          user.push({ event: `order:${status}`, owner: m.owner, marketId, order: orderEventView(m, marketId, status), timestamp: now });
        }
        for (const c of o.cancelled) user.push({ event: 'order:cancelled', owner: c.order.owner, marketId, order: orderEventView(c.order, marketId, 'cancelled'), timestamp: now });
        for (const f of o.fills) {
          const fill = {
            id: f.id, marketId, makerOrderId: f.makerOrderId, takerOrderId: f.takerOrderId, makerPubkey: f.makerOwner, takerPubkey: f.takerOwner,
            takerSide: f.takerSide, outcome: f.outcome, priceBps: f.priceBps, quantity: f.quantity.toString(), usdcAmount: f.usdcAmount.toString(),
            takerFee: f.takerFee.toString(), makerRebate: f.makerRebate.toString(), protocolFee: f.protocolFee.toString(), fillType: f.fillType,
            status: 'matched', retryCount: 0, batchId: null, matchedAt: f.matchedAt, createdAt: f.matchedAt,
          };
          for (const owner of new Set([f.makerOwner, f.takerOwner])) user.push({ event: 'fill:matched', owner, marketId, fill, timestamp: now });
          push(marketId, {
            event: 'trade', marketId,
            trade: { id: f.id, marketId, outcome: f.outcome, priceBps: f.priceBps, quantity: f.quantity.toString(), takerSide: f.takerSide, fillType: f.fillType, status: 'matched', matchedAt: f.matchedAt },
          });
        }
      } else {
        for (const c of o.cancelled) user.push({ event: 'order:cancelled', owner: c.order.owner, marketId, order: orderEventView(c.order, marketId, 'cancelled'), timestamp: now });
        for (const r of o.restored ?? []) {
          const status = r.remaining === r.quantity ? 'open' : 'partially_filled';
          user.push({ event: 'order:restored', owner: r.owner, marketId, order: orderEventView(r, marketId, status), timestamp: now });
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
    void this.bus.publishMarket(marketId, events, { ...view }).then((seq) => {
      if (seq !== null && this.views.get(marketId) === view) view.seq = seq;
    });
  }

  latest(marketId: string): BookView | undefined {
    return this.views.get(marketId);
  }

  forget(marketId: string): void {
    this.views.delete(marketId);
    this.lastTop.delete(marketId);
  }
}
