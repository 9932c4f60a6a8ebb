/**
 * What the WebSocket channels say agrees with what REST says, on a real stack (embedded cluster,
 * SQLite or PostgreSQL, Redis bus, matcher, keeper) with real sockets (issue 25, part 4):
 * - every user event carries the REST object of its order or fill as REST shows it at that
 *   moment (plus the fill's documented `createdAt`), under the public event names (`fill:failed`,
 *   and the old `fill:failed_insufficient_balance` beside it);
 * - the REST orderbook's `seq` is the last `seq` a market subscriber saw, also after the keeper's
 *   settled trades (which move the market's counter without changing the book).
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_AVAILABLE, POSTGRES_URL } from '../helpers/databases.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';
import {
  createClobMarket,
  depositedTrader,
  get,
  openClobHarness,
  place,
  post,
  signAndSendV0,
  USDC,
  type CHarness,
} from './family-c.harness.js';
import { WsClient, wsUrl, type Frame } from './ws-client.js';

let h: CHarness;
let redis: Redis;

/** The daemon on SQLite (its default), or on a PostgreSQL schema of its own, dropped afterwards. */
const DATABASES = [
  { name: 'SQLite', available: true, schema: null },
  { name: 'PostgreSQL', available: PG_AVAILABLE, schema: `t_${randomBytes(6).toString('hex')}` },
];

async function onPostgres(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(statement);
  await admin.end();
}

const restOrder = async (id: string) => (await get(h, `/v2/clob/orders/${id}`)).json().order as Frame;
const restFill = async (id: string) => (await get(h, `/v2/clob/fills/${id}`)).json().fill as Frame;
const userEvent = (client: WsClient, event: string, owner: string, id: string) =>
  client.waitFor((f) => typeof f === 'object' && f.event === event && f.owner === owner && (f.order ?? f.fill)?.id === id, 10_000);

describe.each(DATABASES)('WebSocket payloads and REST on $name', ({ available, schema }) => {
  beforeAll(async () => {
    if (!available) return;
    const env: Record<string, string> = {};
    if (schema) {
      await onPostgres(`create schema ${schema}`);
      const url = new URL(POSTGRES_URL);
      url.searchParams.set('options', `-c search_path=${schema}`);
      env.DATABASE_URL = url.toString();
    }
    h = await openClobHarness(env);
    redis = new Redis(TEST_REDIS_URL);
  }, 60_000);
  afterAll(async () => {
    redis?.disconnect();
    await h?.close();
    if (available && schema) await onPostgres(`drop schema if exists ${schema} cascade`);
  });

  it.skipIf(!available)(
    'every user event carries the order or fill exactly as REST shows it at that moment',
    async () => {
      const market = await createClobMarket(h);
      const maker = await depositedTrader(h, 100n * USDC);
      const taker = await depositedTrader(h, 100n * USDC);
      const [mk, tk] = [maker, taker].map((k) => k.publicKey.toBase58()) as [string, string];
      const user = await WsClient.open(wsUrl(h.daemon.url!, 'user'));
      for (const pubkey of [mk, tk]) expect(await user.command({ type: 'subscribe', pubkey })).toMatchObject({ event: 'subscribed' });

      // The maker builds a withdrawal of everything before placing (issue 25 part 3's path to a fill
      // its maker cannot pay); settlement stands still while the orders match, so REST stays put.
      const withdraw = await post(h, '/v2/clob/account/withdraw', { pubkey: mk, amount: (100n * USDC).toString() });
      expect(withdraw.statusCode).toBe(200);
      const platform = h.daemon.queues.get('platform');
      await platform.pause();
      let fillId: string;
      let takeId: string;
      let bidId: string;
      try {
        const bid = await place(h, maker, {
          market: market.marketPubkey,
          side: 'buy',
          outcome: 'yes',
          priceBps: 4000,
          quantity: 10n * USDC,
        });
        bidId = bid.orderId;
        const placed = await userEvent(user, 'order:placed', mk, bidId);
        expect(placed.order).toEqual(await restOrder(bidId));
        expect(placed.order).toMatchObject({
          committedAmount: expect.any(String),
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
          cancelReason: null,
          orderType: 'limit',
          timeInForce: 'gtc',
        });

        const take = await place(h, taker, {
          market: market.marketPubkey,
          side: 'buy',
          outcome: 'no',
          priceBps: 6000,
          quantity: 4n * USDC,
        });
        takeId = take.orderId;
        fillId = take.fills[0].id;
        const events = [
          await userEvent(user, 'order:placed', tk, takeId),
          await userEvent(user, 'order:filled', tk, takeId),
          await userEvent(user, 'order:partially_filled', mk, bidId),
        ];
        for (const e of events) expect(e.order).toEqual(await restOrder(e.order.id));
        // The maker's order as a maker event: its type and time in force too (they were missing).
        expect(events[2]!.order).toMatchObject({ orderType: 'limit', timeInForce: 'gtc', remainingQuantity: '6000000' });
        for (const owner of [mk, tk]) {
          const matched = await userEvent(user, 'fill:matched', owner, fillId);
          expect(matched.fill).toEqual({ ...(await restFill(fillId)), createdAt: matched.fill.matchedAt });
          expect(matched.fill).toMatchObject({
            status: 'matched',
            makerUsdcAmount: expect.any(String),
            settleTx: null,
            settledAt: null,
            failureReason: null,
          });
        }
        // The withdrawal lands: the maker can no longer pay for the matched fill.
        await signAndSendV0(h, withdraw.json().transaction, maker);
      } finally {
        await platform.resume();
      }

      // The chain refuses the fill: `fill:failed` (public name) with its status and reason, then the old name beside it.
      for (const owner of [mk, tk]) {
        const failed = await userEvent(user, 'fill:failed', owner, fillId);
        const old = await userEvent(user, 'fill:failed_insufficient_balance', owner, fillId);
        expect(user.frames.indexOf(failed)).toBeLessThan(user.frames.indexOf(old));
        expect(old.fill).toEqual(failed.fill);
        expect(failed.fill).toMatchObject({
          status: 'failed_insufficient_balance',
          failureReason: expect.stringContaining('InsufficientBalance'),
        });
      }
      // The maker's bid is cancelled (it cannot pay): the event carries the REST order with its reason.
      const cancelled = await userEvent(user, 'order:cancelled', mk, bidId);
      // Two paths cancel it, whichever comes first: the index (its wallet no longer covers the bid;
      // the fill then still counted, 4 filled) or the keeper once the fill failed (0 filled). The
      // event is REST at that moment; REST now counts the failed fill out.
      const rest = await restOrder(bidId);
      expect(rest.filledQuantity).toBe('0');
      expect(['0', '4000000']).toContain(cancelled.order.filledQuantity);
      expect({ ...cancelled.order, filledQuantity: rest.filledQuantity }).toEqual(rest);
      expect(cancelled.order.cancelReason).not.toBeNull();
      // Nothing changes the fill after it failed: its last event is what REST shows.
      const failed = await userEvent(user, 'fill:failed', tk, fillId);
      expect(failed.fill).toEqual({ ...(await restFill(fillId)), createdAt: failed.fill.matchedAt });
      user.close();
    },
    60_000,
  );

  it.skipIf(!available)(
    'the REST orderbook shows the seq of the last market event, the keeper’s settled trades included',
    async () => {
      const market = await createClobMarket(h);
      const maker = await depositedTrader(h, 100n * USDC);
      const taker = await depositedTrader(h, 100n * USDC);
      const book = await WsClient.open(wsUrl(h.daemon.url!, 'market'));
      expect(await book.command({ type: 'subscribe', markets: [market.id] })).toMatchObject({ event: 'subscribed' });
      await book.waitFor((f) => typeof f === 'object' && f.event === 'book');

      await place(h, maker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 4000, quantity: 10n * USDC });
      const fills: string[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await place(h, taker, { market: market.marketPubkey, side: 'buy', outcome: 'no', priceBps: 6000, quantity: 1n * USDC });
        fills.push(r.fills[0].id);
      }
      // Every fill's settled trade has reached the subscriber (the keeper's events, after the matcher's).
      for (const id of fills)
        await book.waitFor(
          (f) => typeof f === 'object' && f.event === 'trade' && f.trade.id === id && f.trade.status === 'settled',
          30_000,
        );
      const lastSeen = Math.max(...book.events.filter((f) => typeof f.seq === 'number').map((f) => f.seq as number));
      expect(lastSeen).toBe(Number(await redis.get(`${h.prefix}:clob:seq:${market.id}`)));
      const rest = (await get(h, `/v2/clob/markets/${market.id}/orderbook`)).json();
      expect(rest.seq).toBe(lastSeen);
      book.close();
    },
    60_000,
  );
});
