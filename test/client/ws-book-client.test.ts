/**
 * Issue 30's acceptance for the WebSocket client: a book kept by `BookClient` (@pmx/client)
 * equals the REST book after 1,000 random orders, against the whole daemon in this process
 * (family-c.harness.ts: matcher, keeper, Redis bus, the real `/v2/ws/market`).
 *
 * Four traders send the orders in batches of 20 (POST /v2/clob/orders/batch): both outcomes,
 * both sides, prices across the spread so that many cross, some IOC. One client follows the
 * market from the start through a TCP proxy that the test cuts twice in the middle of the flow
 * (the client must reconnect by itself and resync); a second connects straight to the daemon
 * halfway through. Each waits, by event, until its book holds the `seq` the REST book reports.
 *
 * It lives in the daemon's test tree: a package's own tests may not import the daemon.
 */
import { createHash } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookClient, UserClient, type BookClientEvents, type BookSide } from '@pmx/client';
import {
  createClobMarket,
  get,
  openClobHarness,
  post,
  signedOrder,
  splitTraders,
  USDC,
  waitFor,
  type CHarness,
} from '../family-c/family-c.harness.js';
import { rng } from '../helpers/rng.js';

/** A TCP proxy to the daemon whose connections the test can cut (as a network failure would). */
async function cuttableProxy(target: string): Promise<{ url: string; cut(): number; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const pairs = new Set<[Socket, Socket]>();
  const server: Server = createServer((front) => {
    const back = connect(Number(port), hostname);
    const pair: [Socket, Socket] = [front, back];
    pairs.add(pair);
    front.pipe(back).pipe(front);
    const end = () => {
      pairs.delete(pair);
      front.destroy();
      back.destroy();
    };
    front.on('error', end).on('close', end);
    back.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut() {
      const n = pairs.size;
      for (const [front, back] of pairs) {
        front.destroy();
        back.destroy();
      }
      return n;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The orderbook's `hash` recomputed from a client's sides (docs/family-c.md, canonical text). */
function bookHash(yes: BookSide, no: BookSide): string {
  const sides = { yes, no };
  const text = (['yes', 'no'] as const)
    .flatMap((o) => (['bids', 'asks'] as const).flatMap((s) => sides[o][s].map((l) => `${o}:${s}:${l.price}:${l.size}\n`)))
    .join('');
  return createHash('sha256').update(text).digest('hex');
}

let h: CHarness;
beforeAll(async () => {
  h = await openClobHarness({ RATE_LIMIT_WRITE_PER_MIN: '1000000', RATE_LIMIT_READ_PER_MIN: '1000000' });
});
afterAll(async () => h?.close());

describe('BookClient against the daemon', () => {
  it('keeps a book equal to the REST book after 1,000 random orders, through two cut connections', async () => {
    const market = await createClobMarket(h);
    const traders = await splitTraders(h, market, 4, 3_000n * USDC, 1_000n * USDC);

    const proxy = await cuttableProxy(h.daemon.url!);
    const early = new BookClient({ url: proxy.url, backoff: { initialMs: 300, maxMs: 1_000 } });
    const seen: { disconnected: Array<BookClientEvents['disconnected']>; resynced: Array<BookClientEvents['resynced']> } = {
      disconnected: [],
      resynced: [],
    };
    const seqAtDisconnect: number[] = [];
    early.on('disconnected', (d) => {
      seen.disconnected.push(d);
      seqAtDisconnect.push(early.state(market.id)!.seq!);
    });
    early.on('resynced', (r) => seen.resynced.push(r));
    expect(await early.subscribe([market.id])).toEqual([market.id]);
    await early.waitForSeq(market.id, 0);
    let late: BookClient | undefined;
    // The first trader's own events, on the user channel (straight to the daemon).
    const user = new UserClient({ url: h.daemon.url! });
    const placedEvents = new Set<string>();
    let filledEvents = 0;
    user.on('order', (e) => e.event === 'order:placed' && placedEvents.add(e.order.id));
    user.on('fill', (e) => e.event === 'fill:matched' && filledEvents++);
    await user.watch(traders[0]!.publicKey.toBase58());
    const placedByFirst = new Set<string>();

    const random = rng(30);
    const statuses = new Map<string, number>();
    for (let batch = 0; batch < 50; batch++) {
      const owners = Array.from({ length: 20 }, () => traders[Math.floor(random() * traders.length)]!);
      const orders = owners.map((owner) =>
        signedOrder(owner, {
          market: market.marketPubkey,
          side: random() < 0.5 ? 'buy' : 'sell',
          outcome: random() < 0.5 ? 'yes' : 'no',
          priceBps: 3_000 + 100 * Math.floor(random() * 41),
          quantity: BigInt(1 + Math.floor(random() * 20)) * USDC,
          timeInForce: random() < 0.15 ? 'ioc' : 'gtc',
        }),
      );
      const res = await post(h, '/v2/clob/orders/batch', { orders });
      expect(res.statusCode).toBe(200);
      const results = res.json().results as Array<{ status?: string; error?: string; orderId?: string }>;
      results.forEach((r, i) => {
        if (r.orderId && owners[i] === traders[0]) placedByFirst.add(r.orderId);
      });
      for (const r of results) {
        const key = r.status ?? r.error!;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }
      // Cut mid-stream: the client learns it from the socket, reconnects with backoff (150–300 ms,
      // while the next batch is matched) and resyncs.
      if (batch === 15 || batch === 35) expect(proxy.cut()).toBe(1);
      if (batch === 25) {
        late = new BookClient({ url: h.daemon.url! });
        void late.subscribe([market.id]); // its book is read while orders keep coming
      }
    }

    const rest = (await get(h, `/v2/clob/markets/${market.id}/orderbook?depth=10000`)).json();
    expect(typeof rest.seq).toBe('number');
    await early.waitForSeq(market.id, rest.seq, 20_000);
    await late!.waitForSeq(market.id, rest.seq, 20_000);

    expect(rest.yes.bids.length + rest.yes.asks.length + rest.no.bids.length + rest.no.asks.length).toBeGreaterThan(10);
    expect((statuses.get('filled') ?? 0) + (statuses.get('partially_filled') ?? 0)).toBeGreaterThan(50); // it crossed
    for (const client of [early, late!]) {
      expect(client.book(market.id, 'yes')).toEqual(rest.yes);
      expect(client.book(market.id, 'no')).toEqual(rest.no);
      const view = client.view(market.id)!;
      expect({ bestBid: view.bestBid, bestAsk: view.bestAsk, lastPrice: view.lastPrice }).toEqual({
        bestBid: rest.bestBid,
        bestAsk: rest.bestAsk,
        lastPrice: rest.lastPrice,
      });
      expect(bookHash(view.yes, view.no)).toBe(rest.hash);
      expect(await client.hash(market.id)).toBe(rest.hash);
    }
    await waitFor('every order:placed of the first trader', async () => (placedEvents.size >= placedByFirst.size ? true : undefined));
    expect(placedEvents).toEqual(placedByFirst);
    expect(filledEvents).toBeGreaterThan(0);
    expect(seen.disconnected.map((d) => d.retryInMs !== null)).toEqual([true, true]);
    // Each fresh snapshot covered events the client never received (published while it was away).
    const afterReconnect = seen.resynced.filter((r) => r.reason === 'reconnect');
    expect(afterReconnect).toHaveLength(2);
    afterReconnect.forEach((r, i) => expect(r.seq).toBeGreaterThan(seqAtDisconnect[i]!));
    await Promise.all([early.close(), late!.close(), user.close()]);
    await proxy.close();
  }, 240_000);

  it('resolves a market named twice in one subscribe, by UUID and by slug (the daemon acknowledges it once)', async () => {
    const market = await createClobMarket(h);
    const client = new BookClient({ url: h.daemon.url! });
    expect(await client.subscribe([market.id, market.marketId])).toEqual([market.id, market.id]);
    expect(await client.subscribe([market.marketId])).toEqual([market.id]);
    await client.waitForSeq(market.id, 0);
    await client.close();
  });
});
