/**
 * The market channel's recovery rule, tested: a client that applies the `book` snapshot and then
 * the deltas in seq order, and re-subscribes when it sees a gap, always holds the REST orderbook.
 *
 * Four traders send 1,000 random orders (both outcomes, both sides, limit gtc/ioc, prices across
 * the spread so many cross) and cancels through the API, eight at a time so the matcher commits
 * them in batches. Four clients watch: one from the start, one that subscribes in the middle of
 * the flow, one that re-subscribes at the start of every batch (so its snapshots are read while
 * that batch's events are being published), and one that loses a frame on purpose, notices the
 * gap and re-subscribes. Once the flow is over, each replayed book equals the REST book, and only
 * the client that lost a frame ever saw a gap.
 */
import type { Keypair } from '@solana/web3.js';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelOrderText } from '../../src/domain/signed-message.js';
import { signText } from '../helpers/sign.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';
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
} from './family-c.harness.js';
import { ReplayBook, WsClient, wsUrl, type Frame } from './ws-client.js';
import { rng } from '../helpers/rng.js';

let h: CHarness;
let redis: Redis;
beforeAll(async () => {
  h = await openClobHarness();
  redis = new Redis(TEST_REDIS_URL);
});
afterAll(async () => {
  redis?.disconnect();
  await h?.close();
});

/** A client following one market: replays every frame, re-subscribes on a gap, may drop a frame on purpose. */
function follow(client: WsClient, marketId: string, dropDeltaNumber?: number) {
  const replay = new ReplayBook();
  let deltas = 0;
  let resyncing = false;
  let resubscribed = 0;
  let closed = '';
  // A bot's keep-alive (docs/websockets.md: PING every ~15 s): on a loaded machine the flow
  // outlasts the 30 s idle timeout, and a client that only listens was closed with 4008.
  const keepAlive = setInterval(() => client.send('PING'), 10_000).unref();
  client.socket.once('close', (code, reason) => {
    clearInterval(keepAlive);
    closed = `${code} ${reason.toString()}`;
  });
  client.socket.on('message', (data) => {
    if (data.toString() === 'PONG') return;
    const frame = JSON.parse(data.toString()) as Frame;
    if (frame.marketId !== marketId) return;
    if (frame.event === 'error' && frame.code === 'BOOK_UNAVAILABLE') {
      client.send({ type: 'subscribe', markets: [marketId] }); // the documented answer: subscribe again
      return;
    }
    if (frame.event === 'book') resyncing = false;
    else if (typeof frame.seq === 'number' && ++deltas === dropDeltaNumber) return; // "lost"
    if (resyncing) return;
    if (!replay.apply(frame)) {
      resyncing = true; // the documented rule: a gap → subscribe again for a fresh book
      resubscribed++;
      client.send({ type: 'subscribe', markets: [marketId] });
    }
  });
  /** Where this client is, for a failure's message. */
  const state = () =>
    `seq ${replay.seq}, gaps ${replay.gaps}, re-subscribed ${resubscribed}${resyncing ? ', resyncing' : ''}${closed ? `, closed ${closed}` : ''}`;
  return { replay, resubscribed: () => resubscribed, state };
}

describe('market channel replay', () => {
  it('snapshot + deltas equal the REST orderbook after 1,000 random orders, for late joiners and after a gap', async () => {
    const market = await createClobMarket(h);
    const traders = await splitTraders(h, market, 4, 3_000n * USDC, 1_000n * USDC);

    const early = await WsClient.open(wsUrl(h.daemon.url!, 'market'));
    const earlyBook = follow(early, market.id);
    const lossy = await WsClient.open(wsUrl(h.daemon.url!, 'market'));
    const lossyBook = follow(lossy, market.id, 100);
    const churn = await WsClient.open(wsUrl(h.daemon.url!, 'market'));
    const churnBook = follow(churn, market.id);
    for (const c of [early, lossy, churn]) await c.command({ type: 'subscribe', markets: [market.id] });
    await early.waitFor((f) => typeof f === 'object' && f.event === 'book');

    const random = rng(7);
    const open: Array<{ id: string; owner: Keypair }> = [];
    const outcomes = new Map<string, number>();
    let late: { client: WsClient; book: ReturnType<typeof follow> } | undefined;
    let churnedAt = 0;
    for (let n = 0; n < 1_000; n += 8) {
      // A fresh book, read while this batch is matched; paced under the 20-frames-a-second limit
      // (a client above it is closed with 4029), since a batch can take less than 50 ms.
      const wait = churnedAt + 60 - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      churnedAt = Date.now();
      churn.send({ type: 'subscribe', markets: [market.id] });
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          const owner = traders[Math.floor(random() * traders.length)]!;
          if (random() < 0.12 && open.length > 0) {
            const { id, owner: who } = open.splice(Math.floor(random() * open.length), 1)[0]!;
            const res = await post(h, `/v2/clob/orders/${id}/cancel`, {
              pubkey: who.publicKey.toBase58(),
              signature: Buffer.from(signText(who, cancelOrderText(id))).toString('base64'),
            });
            outcomes.set(`cancel ${res.statusCode}`, (outcomes.get(`cancel ${res.statusCode}`) ?? 0) + 1);
            return;
          }
          const side = random() < 0.5 ? 'buy' : 'sell';
          const res = await post(
            h,
            '/v2/clob/orders',
            signedOrder(owner, {
              market: market.marketPubkey,
              side,
              outcome: random() < 0.5 ? 'yes' : 'no',
              priceBps: 3_000 + 100 * Math.floor(random() * 41),
              quantity: BigInt(1 + Math.floor(random() * 20)) * USDC,
              timeInForce: random() < 0.15 ? 'ioc' : 'gtc',
            }),
          );
          const body = res.json();
          const key = res.statusCode === 200 ? body.status : `${res.statusCode} ${body.error}`;
          outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
          if (res.statusCode === 200 && ['open', 'partially_filled'].includes(body.status)) open.push({ id: body.orderId, owner });
        }),
      );
      if (n === 496) {
        const client = await WsClient.open(wsUrl(h.daemon.url!, 'market'));
        late = { client, book: follow(client, market.id) };
        client.send({ type: 'subscribe', markets: [market.id] }); // its book is read while orders keep coming
      }
    }

    // Every order was acknowledged; wait until every client has applied the last published event.
    const last = Number(await redis.get(`${h.prefix}:clob:seq:${market.id}`));
    expect(last).toBeGreaterThan(1_000);
    // (the keeper publishes settled trades meanwhile: they move seq on, never the book)
    const books = { early: earlyBook, lossy: lossyBook, churn: churnBook, late: late!.book };
    await waitFor(
      `replay at seq ${last}`,
      async () => (Object.values(books).every((b) => b.replay.seq >= last) ? true : undefined),
      15_000,
    ).catch((error: Error) => {
      throw new Error(
        `${error.message}: ${Object.entries(books)
          .map(([name, b]) => `${name}: ${b.state()}`)
          .join('; ')}`,
      );
    });
    // The last re-subscription's book (a re-subscription made while a book is on its way is answered by that book).
    const lastAck = churn.frames.map((f) => typeof f === 'object' && f.event === 'subscribed').lastIndexOf(true);
    await churn.waitFor((f) => typeof f === 'object' && f.event === 'book', 15_000, lastAck + 1);
    const rest = (await get(h, `/v2/clob/markets/${market.id}/orderbook?depth=10000`)).json();
    const expected = { yes: rest.yes, no: rest.no, bestBid: rest.bestBid, bestAsk: rest.bestAsk };
    expect(rest.yes.bids.length + rest.yes.asks.length + rest.no.bids.length + rest.no.asks.length).toBeGreaterThan(10);
    expect(outcomes.get('filled') ?? 0).toBeGreaterThan(50); // the flow crossed, not only rested
    expect(earlyBook.replay.view()).toEqual(expected);
    expect(late!.book.replay.view()).toEqual(expected);
    expect(churnBook.replay.view()).toEqual(expected);
    expect(churn.events.filter((f) => f.event === 'subscribed')).toHaveLength(126);
    expect(churn.events.filter((f) => f.event === 'book').length).toBeGreaterThan(60); // snapshots read while batches were matched
    expect(lossyBook.replay.view()).toEqual(expected);
    expect(earlyBook.resubscribed()).toBe(0);
    expect(late!.book.resubscribed()).toBe(0);
    expect(churnBook.resubscribed()).toBe(0);
    expect(lossyBook.resubscribed()).toBe(1);
    for (const c of [early, lossy, churn, late!.client]) c.close();
  }, 180_000);
});
