/**
 * Turns what each committed matcher batch did into events on the bus (clob-events.ts) and
 * applies the levels it changed to this node's mirror of each book (book-mirror.ts) and to the
 * book stored in Redis, in the same script as the events. Runs after the commit, never before:
 * nothing is announced that a crash could take back. A batch costs what it changed: no step
 * here walks or serialises a whole book, except once per market taken over (`announce`).
 */
import type { Logger } from 'pino';
import type { MatcherEventSink, OpOutcome, OwnedMarket } from '../matcher/matcher-types.js';
import type { LevelDelta } from '../../../domain/orderbook/index.js';
import { BookMirror, levelField } from './book-mirror.js';
import type { BookView } from './book-snapshot.js';
import { levelEvent, orderEventView, type MarketEvent, type UserEvent } from './clob-events.js';
import type { BookChange, ClobEventBus } from './event-bus.js';

type Top = { bestBid: unknown; bestAsk: unknown };
const sameTop = (a: Top | undefined, b: Top) => a !== undefined && JSON.stringify(a) === JSON.stringify(b);

export class MatcherEventPublisher implements MatcherEventSink {
  private readonly lastTop = new Map<string, Top>();
  /** The committed state of each book this node owns (reads never see an uncommitted batch). */
  private readonly mirrors = new Map<string, BookMirror>();

  constructor(
    private readonly bus: ClobEventBus,
    private readonly log: Logger,
    /** Markets whose batch produced fills (the settlement keeper plans them at once). */
    private readonly filled?: (marketIds: string[]) => void,
  ) {}

  committed(outcomes: readonly OpOutcome[], books: ReadonlyMap<string, OwnedMarket>): void {
    const market = new Map<string, MarketEvent[]>();
    const levels = new Map<string, LevelDelta[]>();
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
      if (!levels.has(marketId)) levels.set(marketId, []);
      levels.get(marketId)!.push(...o.levels);
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
      let mirror = this.mirrors.get(marketId);
      if (!mirror) {
        this.announce(marketId, owned); // not announced yet: the whole book once, then deltas
        mirror = this.mirrors.get(marketId)!;
      }
      const changed = levels.get(marketId)!;
      if (changed.length === 0 && events.length === 0) continue; // the book did not change (e.g. an IOC that took nothing)
      mirror.apply(changed, owned.book.top());
      const top = { bestBid: mirror.top.bestBid, bestAsk: mirror.top.bestAsk };
      if (!sameTop(this.lastTop.get(marketId), top)) {
        events.push({ event: 'best_bid_ask', marketId, ...top } as MarketEvent);
        this.lastTop.set(marketId, top);
      }
      // The last size of each level the batch touched.
      const last = new Map(changed.map((l) => [levelField(l.outcome, l.side, l.priceBps), l.size.toString()] as const));
      this.publish(marketId, events, mirror, { head: this.head(marketId, mirror), levels: [...last] });
    }
    void this.bus.publishUser(user).catch((err) => this.log.warn({ err }, 'user events not published'));
    const withFills = [...new Set(outcomes.flatMap((o) => (o.kind === 'place' && o.fills.length > 0 ? [o.order.marketId] : [])))];
    if (withFills.length > 0) this.filled?.(withFills);
  }

  /** A market was (re)taken by this node: publish its whole book (replacing what Redis held) so other nodes read it. */
  announce(marketId: string, owned: OwnedMarket): void {
    const { mirror, levels } = BookMirror.of(owned.book);
    this.mirrors.set(marketId, mirror);
    this.lastTop.set(marketId, { bestBid: mirror.top.bestBid, bestAsk: mirror.top.bestAsk });
    const all = levels.map((l) => [levelField(l.outcome, l.side, l.priceBps), l.size.toString()] as const);
    this.publish(marketId, [], mirror, { head: this.head(marketId, mirror), levels: all, reset: true });
  }

  private head(marketId: string, mirror: BookMirror): BookChange['head'] {
    return { marketId, ...mirror.top, timestamp: Date.now() };
  }

  /** Publishes, then stamps the mirror with the sequence number Redis gave its last event (if nothing changed since). */
  private publish(marketId: string, events: MarketEvent[], mirror: BookMirror, change: BookChange): void {
    const version = mirror.version;
    void this.bus.publishMarket(marketId, events, change).then((seq) => {
      if (seq !== null && this.mirrors.get(marketId) === mirror && mirror.version === version) mirror.seq = seq;
    });
  }

  /** The committed book of a market this node owns, `depth` levels per side; undefined for others. */
  latest(marketId: string, depth: number): BookView | undefined {
    return this.mirrors.get(marketId)?.view(marketId, depth);
  }

  /** The committed top of a market this node owns (no levels read). */
  latestTop(marketId: string): BookMirror['top'] | undefined {
    return this.mirrors.get(marketId)?.top;
  }

  forget(marketId: string): void {
    this.mirrors.delete(marketId);
    this.lastTop.delete(marketId);
  }
}
