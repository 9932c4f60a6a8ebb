/**
 * How a book is published (issue 25 part 6): each committed batch sends only the levels it
 * changed, as `price_change` deltas with their seq and as updates of the book Redis stores, and
 * the whole book only once, when a matcher takes the market. Tested with a real book (the domain
 * engine), the real publisher and a real Redis: after 1,500 random placements and cancels over a
 * wide price range, in batches, the book a subscriber replays (stored book read mid-flow + the
 * deltas after it), the book Redis stores, the publisher's committed mirror and the engine's own
 * book are the same. And a deep book's WebSocket frames stay under the frame bound.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { OrderBook, type LevelDelta } from '../../src/domain/orderbook/index.js';
import { storedSides, storedView, type BookView } from '../../src/services/family-c/events/book-snapshot.js';
import { ClobEventBus } from '../../src/services/family-c/events/event-bus.js';
import { MatcherEventPublisher } from '../../src/services/family-c/events/matcher-events.publisher.js';
import type { OpOutcome, OwnedMarket } from '../../src/services/family-c/matcher/matcher-types.js';
import type { BatchViews } from '../../src/services/family-c/orders/batch-views.js';
import { BOOK_FRAME_BYTES, bookFrame } from '../../src/services/family-c/ws/book-frame.js';
import type { WsPeer } from '../../src/services/family-c/ws/ws-connection.js';
import { WsHub } from '../../src/services/family-c/ws/ws-hub.js';
import { publisherAndSubscriber, uniquePrefix } from '../helpers/redis.js';
import { ReplayBook, type Frame } from './ws-client.js';
import { rng } from '../helpers/rng.js';

const prefix = uniquePrefix('book-publication');
/** These batches carry only level deltas: no order or fill to present on the user channel. */
const NO_VIEWS: BatchViews = { orders: new Map(), fills: new Map() };
const conns = publisherAndSubscriber(prefix);

/** The engine's own book in the REST shape (every level). */
function engineView(book: OrderBook) {
  const d = book.depth(10_000);
  const side = (ls: { priceBps: number; size: bigint }[]) => ls.map((l) => ({ price: l.priceBps, size: l.size.toString() }));
  return { yes: { bids: side(d.yes.bids), asks: side(d.yes.asks) }, no: { bids: side(d.no.bids), asks: side(d.no.asks) }, ...book.top() };
}
const levelsOf = (v: Pick<BookView, 'yes' | 'no' | 'bestBid' | 'bestAsk' | 'lastPrice'>) => ({
  yes: v.yes,
  no: v.no,
  bestBid: v.bestBid,
  bestAsk: v.bestAsk,
  lastPrice: v.lastPrice,
});

describe('book publication', () => {
  it('deltas and the stored book keep a subscriber, Redis, the mirror and the engine on the same book', async () => {
    const marketId = 'm-wide';
    const bus = new ClobEventBus(conns.redis, prefix, pino({ level: 'silent' }));
    const publisher = new MatcherEventPublisher(bus, pino({ level: 'silent' }));
    const book = new OrderBook({ marketId });
    const books = new Map<string, OwnedMarket>([
      [marketId, { marketId, book, epoch: 1n, status: 'active', yesMint: 'y', noMint: 'n', nextExpiry: Infinity }],
    ]);

    // A subscriber from the start: every event, in order.
    const received: Frame[] = [];
    conns.sub.on('message', (_channel: string, message: string) => received.push(...(JSON.parse(message) as { events: Frame[] }).events));
    await conns.sub.subscribe(bus.marketChannel);
    publisher.announce(marketId, books.get(marketId)!);

    const random = rng(25);
    const resting: string[] = [];
    let late: { seq: number; view: BookView } | undefined;
    for (let batch = 0; batch < 150; batch++) {
      const outcomes: OpOutcome[] = [];
      for (let i = 0; i < 10; i++) {
        let levels: readonly LevelDelta[];
        if (random() < 0.2 && resting.length > 0) {
          const done = book.cancel(resting.splice(Math.floor(random() * resting.length), 1)[0]!);
          levels = done ? [done.level] : [];
        } else {
          const id = `o${batch}-${i}`;
          const side = random() < 0.5 ? 'buy' : 'sell';
          // Wide: bids anywhere below 5000, asks anywhere above; one order in twenty crosses.
          const cross = random() < 0.05;
          const priceBps =
            side === 'buy' ? (cross ? 9_000 : 1 + Math.floor(random() * 4_999)) : cross ? 1_000 : 5_001 + Math.floor(random() * 4_998);
          const r = book.place({
            id,
            owner: `owner${Math.floor(random() * 50)}`,
            side,
            outcome: random() < 0.5 ? 'yes' : 'no',
            priceBps,
            quantity: BigInt(1 + Math.floor(random() * 5)) * 1_000_000n,
            expiry: 2e9,
          });
          if (r.order.resting) resting.push(id);
          for (const m of r.makersChanged) if (m.remaining === 0n) resting.splice(resting.indexOf(m.id), 1);
          levels = r.levels;
        }
        outcomes.push({ kind: 'cancel', marketId, cancelled: [], levels: [...levels] }); // the publisher reads only the level deltas of these
      }
      publisher.committed(outcomes, books, NO_VIEWS);
      if (batch === 75) {
        // A late reader: the stored book at its seq, read while batches keep being published.
        const read = storedView(marketId, await bus.readBook(marketId));
        late = { seq: read!.seq, view: read! };
      }
      expect(levelsOf(publisher.latest(marketId, 10_000)!)).toEqual(levelsOf(engineView(book)));
    }
    const last = Number(await conns.redis.get(bus.seqKey(marketId)));
    await expect.poll(() => received.at(-1)?.seq, { timeout: 10_000 }).toBe(last);

    const stored = storedView(marketId, await bus.readBook(marketId))!;
    expect(stored.seq).toBe(last);
    expect(levelsOf(stored)).toEqual(levelsOf(engineView(book)));
    expect(publisher.latest(marketId, 10_000)!.seq).toBe(last);

    // The late reader replays what came after its read and lands on the same book.
    const replay = new ReplayBook();
    replay.apply({ event: 'book', seq: late!.seq, ...late!.view });
    for (const e of received) expect(replay.apply(e)).toBe(true);
    expect(replay.gaps).toBe(0);
    const replayed = replay.view();
    expect({ yes: replayed.yes, no: replayed.no }).toEqual({ yes: stored.yes, no: stored.no });
    const width = ['yes', 'no'].reduce((n, o) => n + stored[o as 'yes'].bids.length + stored[o as 'yes'].asks.length, 0);
    expect(width).toBeGreaterThan(500); // a wide book, not a handful of levels

    // A batch publishes its own levels only: the last batch's script carried a few level pairs, not the book.
    const before = received.length;
    const r = book.place({ id: 'last', owner: 'ownerX', side: 'buy', outcome: 'yes', priceBps: 1, quantity: 1_000_000n, expiry: 2e9 });
    publisher.committed([{ kind: 'cancel', marketId, cancelled: [], levels: [...r.levels] }], books, NO_VIEWS);
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(before + 1); // one price_change (the top did not move)
    expect(received.at(-1)).toMatchObject({ event: 'price_change', seq: last + 1, price: 1 });
  });

  it('splits a deep book into frames under the bound that together hold every level once, in order', () => {
    // Every level of both outcomes: 4 × 9,999 levels (about 1.4 MB as one frame).
    const levels: string[] = [];
    for (const key of ['yes:buy', 'yes:sell', 'no:buy', 'no:sell'])
      for (let p = 1; p <= 9_999; p++) levels.push(`${key}:${p}`, String(p * 1_000_000));
    const head = JSON.stringify({
      seq: 41,
      marketId: 'm',
      bestBid: { yes: 9_999, no: 9_999 },
      bestAsk: { yes: 1, no: 1 },
      lastPrice: { yes: null, no: null },
      timestamp: 1,
    });
    const book = bookFrame('m', { head, counter: '43', levels }, 'active', 2);
    const frames = [book.frame, ...(book.more ?? [])].map((f) => f.toString());
    for (const f of frames) expect(Buffer.byteLength(f)).toBeLessThanOrEqual(BOOK_FRAME_BYTES);
    expect(frames.length).toBeGreaterThan(40);
    const parsed = frames.map((f) => JSON.parse(f) as Frame);
    expect(parsed[0]).toMatchObject({ event: 'book', seq: 43, status: 'active', parts: frames.length, bestBid: { yes: 9_999, no: 9_999 } });
    parsed
      .slice(1)
      .forEach((f, i) => expect(f).toMatchObject({ event: 'book_levels', seq: 43, marketId: 'm', part: i + 2, parts: frames.length }));

    const replay = new ReplayBook();
    for (const f of parsed) expect(replay.apply(f)).toBe(true);
    expect(replay.view()).toMatchObject(storedSides(levels));

    // A book that fits one frame is one `book`, as before (no `parts`).
    const small = bookFrame('m', { head, counter: '41', levels: ['yes:buy:4000', '10'] }, 'active', 2);
    expect(small.more).toBeUndefined();
    expect(JSON.parse(small.frame.toString())).not.toHaveProperty('parts');
  });

  it("sends a deep book's parts right after its book frame, before the events that followed the read", async () => {
    const M = '11111111-1111-4111-8111-111111111111';
    const reads: number[] = [];
    const hub = new WsHub(
      {
        resolveMarkets: async (refs) => refs.map(() => M),
        readBook: (_m, ticket) => reads.push(ticket),
        now: () => 0,
        defer: (run) => run(),
        warn: () => undefined,
      },
      { idleTimeoutMs: 30_000, maxBufferedBytes: 65_536 }, // the smallest WS_MAX_BUFFERED_BYTES allowed
    );
    const sent: string[] = [];
    let closed: number | null = null;
    const peer: WsPeer = { bufferedAmount: 0, send: (f) => void sent.push(f.toString()), close: (code) => void (closed = code) };
    hub.receive(hub.open('market', peer), JSON.stringify({ type: 'subscribe', markets: [M] }));
    await new Promise((r) => setImmediate(r));
    hub.marketMessage(
      JSON.stringify({
        marketId: M,
        events: [{ seq: 44, event: 'price_change', marketId: M, outcome: 'yes', side: 'buy', price: 1, size: '0' }],
      }),
    );
    const levels: string[] = [];
    for (let p = 1; p <= 9_999; p++) levels.push(`yes:buy:${p}`, '1000000', `no:sell:${p}`, '1000000');
    hub.bookArrived(
      M,
      reads[0]!,
      bookFrame(
        M,
        { head: JSON.stringify({ seq: 43, bestBid: {}, bestAsk: {}, lastPrice: {}, timestamp: 1 }), counter: '43', levels },
        'active',
        1,
      ),
    );
    const frames = sent.map((f) => JSON.parse(f) as Frame).filter((f) => f.event !== 'subscribed');
    expect(closed).toBeNull();
    expect(frames[0]).toMatchObject({ event: 'book', seq: 43 });
    const parts = frames[0]!.parts as number;
    expect(frames.slice(1, parts).every((f) => f.event === 'book_levels' && f.seq === 43)).toBe(true);
    expect(frames.slice(parts)).toEqual([expect.objectContaining({ event: 'price_change', seq: 44 })]);
    for (const f of sent) expect(Buffer.byteLength(f)).toBeLessThanOrEqual(BOOK_FRAME_BYTES);
  });
});
