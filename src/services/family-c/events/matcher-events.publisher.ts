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
import type { BatchViews } from '../orders/batch-views.js';
import { levelEvent, type MarketEvent, type UserEvent } from './clob-events.js';
import type { BookChange, ClobEventBus } from './event-bus.js';
import { userEventsOf } from './user-events.js';

type Top = { bestBid: unknown; bestAsk: unknown };
const sameTop = (a: Top | undefined, b: Top) => a !== undefined && JSON.stringify(a) === JSON.stringify(b);

export class MatcherEventPublisher implements MatcherEventSink {
  private readonly lastTop = new Map<string, Top>();
  /** The committed state of each book this node owns (reads never see an uncommitted batch). */
  private readonly mirrors = new Map<string, BookMirror>();
  /** Each market's last publish: the seq Redis gave its last event (null: the publish failed), for REST reads (book-reads.ts). */
  private readonly lastPublish = new Map<string, Promise<number | null>>();

  constructor(
    private readonly bus: ClobEventBus,
    private readonly log: Logger,
    /** Markets whose batch produced fills (the settlement keeper plans them at once). */
    private readonly filled?: (marketIds: string[]) => void,
  ) {}

  committed(outcomes: readonly OpOutcome[], books: ReadonlyMap<string, OwnedMarket>, views: BatchViews): void {
    const market = new Map<string, MarketEvent[]>();
    const levels = new Map<string, LevelDelta[]>();
    const user = userEventsOf(outcomes, views, Date.now());
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
        for (const f of o.fills) {
          push(marketId, {
            event: 'trade',
            marketId,
            trade: {
              id: f.id,
              marketId,
              outcome: f.outcome,
              priceBps: f.priceBps,
              quantity: f.quantity.toString(),
              takerSide: f.takerSide,
              fillType: f.fillType,
              status: 'matched',
              matchedAt: f.matchedAt,
            },
          });
        }
      }
      for (const l of o.levels) push(marketId, levelEvent(marketId, l));
    }
    // Each market's publish, sent once the next is known: the last one carries the user events.
    let held: [string, MarketEvent[], BookMirror, BookChange] | undefined;
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
      if (held) this.publish(...held);
      held = [marketId, events, mirror, { head: this.head(marketId, mirror), levels: [...last] }];
    }
    if (held) this.publish(...held, user);
    else void this.bus.publishUser(user).catch((err) => this.log.warn({ err }, 'user events not published'));
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

  /** Publishes (`user`: a batch's user events, after the market's), then stamps the mirror with the sequence number Redis gave its last event (if nothing changed since). */
  private publish(marketId: string, events: MarketEvent[], mirror: BookMirror, change: BookChange, user?: UserEvent[]): void {
    const version = mirror.version;
    const numbered = this.bus.publishMarket(marketId, events, change, user).then((seq) => {
      if (seq !== null && this.mirrors.get(marketId) === mirror && mirror.version === version) mirror.seq = seq;
      return seq;
    });
    this.lastPublish.set(marketId, numbered);
  }

  /** The seq Redis gave the last published event of a market this node owns, once that publish is done (null: it failed). */
  numbered(marketId: string): Promise<number | null> {
    return this.lastPublish.get(marketId) ?? Promise.resolve(this.mirrors.get(marketId)?.seq ?? null);
  }

  /** The version of this node's mirror of a market (bumped by every committed change), undefined when not owned. */
  version(marketId: string): number | undefined {
    return this.mirrors.get(marketId)?.version;
  }

  /** The committed book of a market this node owns, `depth` levels per side; undefined for others. */
  latest(marketId: string, depth: number): BookView | undefined {
    return this.mirrors.get(marketId)?.view(marketId, depth);
  }

  /** The hash of every level of a market this node owns (book-hash.ts), cached per change; undefined for others. */
  latestHash(marketId: string): string | undefined {
    return this.mirrors.get(marketId)?.hash();
  }

  /** The committed top of a market this node owns (no levels read). */
  latestTop(marketId: string): BookMirror['top'] | undefined {
    return this.mirrors.get(marketId)?.top;
  }

  forget(marketId: string): void {
    this.mirrors.delete(marketId);
    this.lastPublish.delete(marketId);
    this.lastTop.delete(marketId);
  }
}
