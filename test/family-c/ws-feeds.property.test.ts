/**
 * The market channel's sequencing (MarketFeeds) against a model of Redis and the network, driven
 * by fast-check: a publisher changes book levels and stamps each event with the next seq; bus
 * messages travel to the node in order and may be lost (a dropped subscription); book reads are
 * requested by the node, execute at some later step (the snapshot is the book at that moment) and
 * are answered later still; clients subscribe, re-subscribe and leave at any point.
 *
 * Properties: a client never sees a gap or a repeat after a book (the node resyncs it instead),
 * and once everything is delivered every subscriber's replayed book equals the publisher's book.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MarketFeeds, type SequencedFrame } from '../../src/services/family-c/ws/market-feeds.js';

const MARKET = 'm-1';

type Op =
  | { kind: 'publish'; level: number; size: number; count: number }
  | { kind: 'deliver' }
  | { kind: 'lose' }
  | { kind: 'execRead' }
  | { kind: 'answerRead'; fail: boolean }
  | { kind: 'subscribe'; client: number }
  | { kind: 'unsubscribe'; client: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('publish' as const),
      level: fc.integer({ min: 0, max: 5 }),
      size: fc.integer({ min: 0, max: 3 }),
      count: fc.integer({ min: 1, max: 3 }),
    }),
  },
  { weight: 6, arbitrary: fc.constant({ kind: 'deliver' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'lose' as const }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'execRead' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('answerRead' as const), fail: fc.integer({ min: 0, max: 4 }).map((n) => n === 0) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('subscribe' as const), client: fc.integer({ min: 0, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('unsubscribe' as const), client: fc.integer({ min: 0, max: 3 }) }) },
);

interface Client {
  id: number;
  subscribed: boolean;
  seq: number | null;
  book: Map<number, number>;
  violations: string[];
}

function simulate(ops: Op[]) {
  // Redis: the book, the seq counter, messages in transit, reads requested and executed.
  const book = new Map<number, number>();
  let seq = 0;
  const transit: SequencedFrame[][] = [];
  const requested: number[] = [];
  const executed: Array<{ ticket: number; frame: SequencedFrame }> = [];
  const clients: Client[] = Array.from({ length: 4 }, (_, id) => ({ id, subscribed: false, seq: null, book: new Map(), violations: [] }));
  let readsRequested = 0;

  const feeds = new MarketFeeds<Client>(
    {
      send: (client, text) => {
        const frame = JSON.parse(text.toString()) as {
          event: string;
          seq: number;
          level?: number;
          size?: number;
          levels?: Array<[number, number]>;
        };
        if (frame.event === 'book') {
          client.seq = frame.seq;
          client.book = new Map(frame.levels);
          return;
        }
        if (client.seq === null) client.violations.push(`event ${frame.seq} before any book`);
        else if (frame.seq !== client.seq + 1) client.violations.push(`event ${frame.seq} after ${client.seq}`);
        client.seq = frame.seq;
        if (frame.size === 0) client.book.delete(frame.level!);
        else client.book.set(frame.level!, frame.size!);
      },
      readBook: (_marketId, ticket) => {
        readsRequested++;
        requested.push(ticket);
      },
      failed: (client) => {
        client.subscribed = false;
        client.seq = null;
      },
    },
    8, // a small buffer bound, so restarts happen too
  );

  const run = (o: Op) => {
    switch (o.kind) {
      case 'publish': {
        const batch: SequencedFrame[] = [];
        for (let i = 0; i < o.count; i++) {
          const level = (o.level + i) % 6;
          if (o.size === 0) book.delete(level);
          else book.set(level, o.size);
          seq++;
          batch.push({ seq, frame: JSON.stringify({ event: 'price_change', seq, level, size: o.size }) });
        }
        transit.push(batch);
        break;
      }
      case 'deliver':
      case 'lose': {
        const batch = transit.shift();
        if (batch && o.kind === 'deliver') feeds.events(MARKET, batch);
        break;
      }
      case 'execRead': {
        const ticket = requested.shift();
        if (ticket !== undefined)
          executed.push({ ticket, frame: { seq, frame: JSON.stringify({ event: 'book', seq, levels: [...book] }) } });
        break;
      }
      case 'answerRead': {
        const read = executed.shift();
        if (!read) break;
        if (o.fail) feeds.bookFailed(MARKET, read.ticket, 'read failed');
        else feeds.bookArrived(MARKET, read.ticket, read.frame);
        break;
      }
      case 'subscribe': {
        const c = clients[o.client]!;
        c.subscribed = true;
        feeds.add(c, MARKET);
        break;
      }
      case 'unsubscribe': {
        const c = clients[o.client]!;
        c.subscribed = false;
        c.seq = null;
        feeds.remove(c, MARKET);
        break;
      }
    }
  };

  for (const o of ops) run(o);
  // Quiesce: one more event surfaces any loss, then everything is delivered and every read answered.
  run({ kind: 'publish', level: 0, size: 1, count: 1 });
  for (let guard = 0; guard < 1_000 && (transit.length > 0 || requested.length > 0 || executed.length > 0); guard++) {
    run({ kind: 'deliver' });
    run({ kind: 'execRead' });
    run({ kind: 'answerRead', fail: false });
  }
  return { book, seq, clients, readsRequested, stats: feeds.stats() };
}

describe('market feed sequencing', () => {
  it('never shows a client a gap, and every subscriber ends with the publisher’s book', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const { book, seq, clients, stats } = simulate(ops);
        for (const c of clients) {
          expect(c.violations).toEqual([]);
          if (!c.subscribed) continue;
          expect(c.seq).toBe(seq);
          expect(new Map([...c.book].sort())).toEqual(new Map([...book].sort()));
        }
        expect(stats.subscriptions).toBe(clients.filter((c) => c.subscribed).length);
        expect(stats.reading).toBe(0);
        expect(stats.buffered).toBe(0);
      }),
      { numRuns: 2_000 },
    );
  });

  it('worked example: the book at seq 3, buffered events 2..5, then live 6', () => {
    const sent: string[] = [];
    const reads: number[] = [];
    const feeds = new MarketFeeds<string>({
      send: (c, f) => sent.push(`${c}:${f}`),
      readBook: (_m, t) => reads.push(t),
      failed: () => undefined,
    });
    feeds.add('a', MARKET);
    feeds.add('b', MARKET); // joins the read in flight
    expect(reads).toEqual([1]);
    const ev = (n: number) => ({ seq: n, frame: `e${n}` });
    feeds.events(MARKET, [ev(2), ev(3)]); // published before the read executed: in the book
    feeds.events(MARKET, [ev(4), ev(5)]); // after it
    feeds.bookArrived(MARKET, 1, { seq: 3, frame: 'book@3' });
    feeds.events(MARKET, [ev(6)]);
    expect(sent).toEqual(['a:book@3', 'a:e4', 'a:e5', 'b:book@3', 'b:e4', 'b:e5', 'a:e6', 'b:e6']);
    // A gap (7 lost): the subscriber is resynced from a new book instead of being shown the gap.
    feeds.events(MARKET, [ev(8)]);
    expect(reads).toEqual([1, 2]);
    feeds.bookArrived(MARKET, 2, { seq: 8, frame: 'book@8' });
    expect(sent.slice(8)).toEqual(['a:book@8', 'b:book@8']);
  });
});
