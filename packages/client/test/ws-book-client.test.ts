/**
 * BookClient against a stand-in market channel on a real `ws` server (ws-stand-in.ts): what the
 * real daemon cannot be made to do on demand — lose a frame, drop the connection, go silent,
 * refuse a market. Every wait is for an event or a frame, never a sleep. The book against the
 * real daemon is in ws-book-client.daemon.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BookClient, type BookClientEvents, type BookClientOptions } from '../src/index.js';
import { StandIn } from './ws-stand-in.js';

const M1 = '11111111-1111-4111-8111-111111111111';
const M2 = '22222222-2222-4222-8222-222222222222';

let server: StandIn;
let clients: BookClient[] = [];
beforeEach(async () => {
  server = await StandIn.start();
});
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  clients = [];
  await server.stop();
});

function open(options: Partial<BookClientOptions> = {}) {
  const client = new BookClient({ url: server.url, backoff: { initialMs: 20, maxMs: 200 }, ...options });
  clients.push(client);
  const seen: { [K in keyof BookClientEvents]?: Array<BookClientEvents[K]> } = {};
  for (const event of ['update', 'gap', 'resynced', 'connected', 'disconnected', 'error'] as const) {
    client.on(event, (payload) => ((seen[event] ??= []) as unknown[]).push(payload));
  }
  return { client, seen };
}

/** The stand-in's book of one outcome as the REST orderbook orders it. */
function expected(marketId: string, outcome: 'yes' | 'no') {
  const levels = [...server.market(marketId).levels.entries()]
    .map(([key, size]) => ({ key: key.split(':'), size }))
    .filter(({ key }) => key[0] === outcome);
  const side = (s: string, descending: boolean) =>
    levels
      .filter(({ key }) => key[1] === s)
      .map(({ key, size }) => ({ price: Number(key[2]), size }))
      .sort((a, b) => (descending ? b.price - a.price : a.price - b.price));
  return { bids: side('buy', true), asks: side('sell', false) };
}

/**
 * Records the timers started from now on and which of them are still pending (neither fired nor
 * cleared): the client's own, since the test runner's were started before.
 */
function trackTimers() {
  const real = { setTimeout, setInterval, clearTimeout, clearInterval };
  const pending = new Map<unknown, string>();
  const g = globalThis as Record<string, unknown>;
  g.setTimeout = (run: () => void, ms?: number) => {
    const timer = real.setTimeout(() => {
      pending.delete(timer);
      run();
    }, ms);
    pending.set(timer, `timeout ${ms} ms: ${new Error().stack?.split('\n')[2]?.trim()}`);
    return timer;
  };
  g.setInterval = (run: () => void, ms?: number) => {
    const timer = real.setInterval(run, ms);
    pending.set(timer, `interval ${ms} ms: ${new Error().stack?.split('\n')[2]?.trim()}`);
    return timer;
  };
  g.clearTimeout = (timer: ReturnType<typeof setTimeout> | undefined) => {
    pending.delete(timer);
    real.clearTimeout(timer);
  };
  g.clearInterval = (timer: ReturnType<typeof setInterval> | undefined) => {
    pending.delete(timer);
    real.clearInterval(timer);
  };
  return { live: () => [...pending.values()], restore: () => Object.assign(globalThis, real) };
}

describe('BookClient', () => {
  it('keeps the book from a split snapshot and the deltas after it, in the REST orderbook shape', async () => {
    server.levelsPerPart = 2;
    for (const [price, size] of [
      [4000, '5'],
      [4100, '6'],
      [3900, '7'],
    ] as const)
      server.priceChange(M1, 'yes', 'buy', price, size);
    server.priceChange(M1, 'no', 'sell', 6200, '9');
    const { client, seen } = open();
    expect(await client.subscribe([M1])).toEqual([M1]);
    await client.waitForSeq(M1, 4);
    expect(server.bookFrames(M1).length).toBe(2); // a `book` with parts: 2, and one `book_levels`
    server.priceChange(M1, 'yes', 'sell', 4500, '3');
    server.priceChange(M1, 'yes', 'buy', 4100, '0');
    server.priceChange(M1, 'no', 'buy', 5000, '1');
    await client.waitForSeq(M1, 7);
    expect(client.book(M1, 'yes')).toEqual(expected(M1, 'yes'));
    expect(client.book(M1, 'no')).toEqual(expected(M1, 'no'));
    expect(client.book(M1, 'yes')).toEqual({
      bids: [
        { price: 4000, size: '5' },
        { price: 3900, size: '7' },
      ],
      asks: [{ price: 4500, size: '3' }],
    });
    expect(client.book(M1, 'yes', 1)!.bids).toEqual([{ price: 4000, size: '5' }]);
    expect(seen.update!.map((u) => u.cause)).toEqual(['book', 'price_change', 'price_change', 'price_change']);
    expect(seen.gap).toBeUndefined();
  });

  it('re-subscribes by itself on a gap, ignores deltas until the fresh book, and converges', async () => {
    const { client, seen } = open();
    await client.subscribe([M1, M2]);
    await client.waitForSeq(M1, 0);
    const conn = server.connections[0]!;
    server.priceChange(M1, 'yes', 'buy', 4000, '1');
    server.priceChange(M1, 'yes', 'buy', 4100, '2', [conn]); // lost on the way to this client
    server.priceChange(M1, 'yes', 'buy', 4200, '3');
    const resynced = new Promise<BookClientEvents['resynced']>((resolve) => client.once('resynced', resolve));
    expect(await resynced).toEqual({ marketId: M1, seq: 3, reason: 'gap' });
    expect(seen.gap).toEqual([{ marketId: M1, expected: 2, got: 3 }]);
    expect(server.subscribes(conn)).toEqual([[M1, M2], [M1]]); // only the market with the gap
    server.priceChange(M1, 'yes', 'buy', 4000, '0');
    await client.waitForSeq(M1, 4);
    expect(client.book(M1, 'yes')).toEqual(expected(M1, 'yes'));
    expect(client.state(M1)).toEqual({ seq: 4, synced: true });
  });

  it('reconnects with growing, bounded, jittered backoff and subscribes every market again', async () => {
    const { client, seen } = open({ backoff: { initialMs: 20, maxMs: 100, random: () => 1 } });
    await client.subscribe([M1, M2]);
    server.priceChange(M2, 'no', 'sell', 7000, '4');
    await client.waitForSeq(M2, 1);
    // Five connections that die at once: the delay doubles up to its bound.
    for (let n = 1; n <= 5; n++) {
      const conn = await server.until(`connection ${n}`, () => server.connections[n - 1]);
      if (n > 1) await server.until('its subscribe', () => server.subscribes(conn).length > 0);
      conn.socket.terminate();
    }
    const conn = await server.until('a sixth connection', () => server.connections[5]);
    await server.until('the sixth subscribe', () => server.subscribes(conn).length > 0);
    expect(seen.disconnected!.map((d) => d.retryInMs)).toEqual([20, 40, 80, 100, 100]);
    expect(server.subscribes(conn)).toEqual([[M1, M2]]);
    server.priceChange(M2, 'no', 'sell', 7000, '5');
    await client.waitForSeq(M2, 2);
    expect(client.book(M2, 'no')).toEqual(expected(M2, 'no'));
    expect(seen.connected!.map((c) => c.reconnect)).toEqual([false, true, true, true, true, true]);
    expect(seen.resynced!.filter((r) => r.marketId === M2).map((r) => r.reason)).toContain('reconnect');
    // Jitter: the delay lies in [step/2, step].
    const jittered = new BookClient({ url: server.url, backoff: { initialMs: 20, maxMs: 100, random: () => 0 } });
    clients.push(jittered);
    const retry = new Promise<number | null>((resolve) => jittered.on('disconnected', (d) => resolve(d.retryInMs)));
    const seventh = await server.until('the jittered client', () => server.connections[6]);
    seventh.socket.terminate();
    expect(await retry).toBe(10);
  });

  it('sends PING to keep the connection, answers a server PING, and drops a silent connection', async () => {
    const { client, seen } = open({ pingIntervalMs: 40, pongTimeoutMs: 400 });
    await client.subscribe([M1]);
    const first = server.connections[0]!;
    await server.until('three PINGs', () => first.received.filter((t) => t === 'PING').length >= 3);
    first.socket.send('PING');
    await server.until('the PONG', () => first.received.includes('PONG'));
    expect(seen.disconnected).toBeUndefined();
    server.answerPing = false; // half-open: nothing comes back any more
    const down = await new Promise<BookClientEvents['disconnected']>((resolve) => client.once('disconnected', resolve));
    expect(down.reason).toMatch(/no answer to PING within 400 ms/);
    server.answerPing = true;
    const second = await server.until('a new connection', () => server.connections[1]);
    await server.until('its subscribe', () => server.subscribes(second).length > 0);
    expect(server.subscribes(second)).toEqual([[M1]]);
  });

  it('drops a refused market and keeps the rest; re-subscribes after BOOK_UNAVAILABLE', async () => {
    server.unavailable.set(M2, 1);
    const { client, seen } = open({ retryMs: 30 });
    await expect(client.subscribe([M1, 'unknown-slug'])).rejects.toThrow(/UNKNOWN_MARKET/);
    await client.waitForSeq(M1, 0);
    const conn = server.connections[0]!;
    expect(server.subscribes(conn)).toEqual([[M1, 'unknown-slug'], [M1]]);
    await client.subscribe([M2]);
    const resynced = await new Promise<BookClientEvents['resynced']>((resolve) => client.once('resynced', resolve));
    expect(resynced).toEqual({ marketId: M2, seq: 0, reason: 'unavailable' });
    expect(seen.error!.map((e) => (e as { code?: string }).code)).toEqual(['UNKNOWN_MARKET', 'BOOK_UNAVAILABLE']);
    await expect(client.subscribe(Array.from({ length: 50 }, (_, i) => `m-${i}`))).rejects.toThrow(RangeError);
  });

  it('forgets a market it unsubscribes, on the daemon too', async () => {
    const { client } = open();
    await client.subscribe([M1, M2]);
    await client.waitForSeq(M2, 0);
    client.unsubscribe([M1]);
    const conn = server.connections[0]!;
    await server.until('the unsubscribe', () => conn.received.some((t) => t.includes('"unsubscribe"')));
    expect(JSON.parse(conn.received.at(-1)!)).toEqual({ type: 'unsubscribe', markets: [M1] });
    expect(client.book(M1, 'yes')).toBeUndefined();
    server.priceChange(M2, 'yes', 'buy', 4000, '1');
    await client.waitForSeq(M2, 1);
    expect(client.book(M2, 'yes')).toEqual(expected(M2, 'yes'));
    expect(client.state(M1)).toBeUndefined();
  });

  it('leaves no timer and no socket after close(), whether connected or waiting to reconnect', async () => {
    const timers = trackTimers();
    const { client: connected } = open({ pingIntervalMs: 20, pongTimeoutMs: 1_000 });
    await connected.subscribe([M1]);
    const live = server.connections[0]!;
    await server.until('a PING', () => live.received.includes('PING'));
    const closedByClient = new Promise<number>((resolve) => live.socket.once('close', resolve));
    await connected.close();
    expect(await closedByClient).toBe(1000);

    const { client: waiting, seen } = open({ pingIntervalMs: 20, backoff: { initialMs: 60_000 } });
    await waiting.subscribe([M1]);
    server.connections[1]!.socket.terminate();
    await server.until('the disconnect', () => seen.disconnected);
    const pending = waiting.subscribe([M2]); // waits for a connection that will not come
    await waiting.close();
    await expect(pending).rejects.toThrow(/closed/);
    expect(waiting.connected).toBe(false);
    timers.restore();
    expect(timers.live()).toEqual([]);
  });
});
