/**
 * Family C market data on a real stack, on SQLite and PostgreSQL (issue 30):
 * - `GET /v2/clob/prices`: tops of several markets in one request (mid and spread per outcome),
 *   duplicates answered once, unknown refs listed in `notFound`; the same tops the market route shows;
 * - the orderbook's `hash`: the SHA-256 of the documented canonical text of every level, the same
 *   whatever `depth`, changed by a change of the book only;
 * - `GET /v2/clob/markets/{id}/prices-history`: the candles of the fills matched, in each outcome's
 *   bps, open and close by match order; the table the job kept equals a rebuild from the fills;
 * - bad input: clear 400s in the Family C envelope.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allMarketCandles, fillsNeedingCandles } from '../../db/repositories/clob-candles.repository.js';
import { rebuildCandles } from '../../src/services/family-c/candles.service.js';
import { CLOB_DATABASES, openClobHarnessOn } from './dialect-harness.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';
import { ClobBookReads } from '../../src/services/family-c/book-reads.js';
import { ClobEventBus } from '../../src/services/family-c/events/event-bus.js';
import { clobWrite, createClobMarket, depositedTrader, get, place, USDC, waitFor, type CHarness } from './family-c.harness.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The canonical text of docs/family-c.md, written from the docs (not from the daemon's code). */
function expectedHash(book: Json): string {
  let text = '';
  for (const outcome of ['yes', 'no']) {
    for (const side of ['bids', 'asks']) for (const l of book[outcome][side]) text += `${outcome}:${side}:${l.price}:${l.size}\n`;
  }
  return createHash('sha256').update(text).digest('hex');
}

/** 1m candles of fills as a trader would compute them: bucket by matchedAt, open/close by match order. */
function minuteCandles(fills: Array<{ at: number; price: number; quantity: bigint }>) {
  const out = new Map<number, Json>();
  for (const f of fills) {
    const t = Math.floor(f.at / 60) * 60;
    const c = out.get(t);
    if (!c) out.set(t, { t, open: f.price, high: f.price, low: f.price, close: f.price, volume: f.quantity });
    else
      Object.assign(c, { high: Math.max(c.high, f.price), low: Math.min(c.low, f.price), close: f.price, volume: c.volume + f.quantity });
  }
  return [...out.values()].map((c) => ({ ...c, volume: c.volume.toString() }));
}

describe.each(CLOB_DATABASES)('market data on $name', ({ name, available }) => {
  let h: CHarness;
  beforeAll(async () => {
    if (available) h = await openClobHarnessOn(name);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it.skipIf(!available)(
    'prices of many markets, the book hash and the price history of the fills matched',
    async () => {
      const [a, b] = [await createClobMarket(h), await createClobMarket(h)];
      const seller = await depositedTrader(h, 30n * USDC);
      const buyer = await depositedTrader(h, 30n * USDC);
      const sk = seller.publicKey.toBase58();
      await clobWrite(h, '/v2/clob/account/split', { pubkey: sk, marketId: a.id, amount: (20n * USDC).toString() }, seller);
      await waitFor(
        'split indexed',
        async () =>
          (await get(h, `/v2/clob/account/balances?pubkey=${sk}`)).json().markets[0]?.yesTokens === '20000000' ? true : undefined,
        20_000,
      );
      const book = async (depth: number) => (await get(h, `/v2/clob/markets/${a.id}/orderbook?depth=${depth}`)).json();
      const empty = await book(5);
      expect(empty.hash).toBe(createHash('sha256').update('').digest('hex'));

      const m = a.marketPubkey;
      await place(h, seller, { market: m, side: 'sell', outcome: 'yes', priceBps: 6000, quantity: 5n * USDC });
      await place(h, seller, { market: m, side: 'sell', outcome: 'yes', priceBps: 6500, quantity: 1n * USDC });
      await place(h, buyer, { market: m, side: 'buy', outcome: 'yes', priceBps: 4001, quantity: 3n * USDC });
      const full = await book(10_000);
      expect(full.hash).toBe(expectedHash(full));
      expect((await book(1)).hash).toBe(full.hash); // every level, whatever depth
      expect((await book(10_000)).hash).toBe(full.hash); // unchanged book, unchanged hash

      // Three fills: YES at 6000, YES at 4001, then NO at 4500 (a YES price of 5500; an ask that
      // would cross the seller's own YES asks through a merge would cancel them: self-trade).
      const fills: Json[] = [];
      const take = async (owner: typeof seller, o: Parameters<typeof place>[2]) => fills.push(...(await place(h, owner, o)).fills);
      await take(buyer, { market: m, side: 'buy', outcome: 'yes', priceBps: 6000, quantity: 2n * USDC, timeInForce: 'ioc' });
      await take(seller, { market: m, side: 'sell', outcome: 'yes', priceBps: 4001, quantity: 1n * USDC, timeInForce: 'ioc' });
      await place(h, seller, { market: m, side: 'sell', outcome: 'no', priceBps: 4500, quantity: 1n * USDC });
      await take(buyer, { market: m, side: 'buy', outcome: 'no', priceBps: 4500, quantity: 1n * USDC, timeInForce: 'ioc' });
      expect(fills.map((f) => [f.outcome, f.priceBps])).toEqual([
        ['yes', 6000],
        ['yes', 4001],
        ['no', 4500],
      ]);
      const after = await book(10_000);
      expect(after.hash).toBe(expectedHash(after));
      expect(after.hash).not.toBe(full.hash);

      // Another node reads the book the matcher keeps in Redis: the same levels, the same hash and tops.
      const redis = new Redis(TEST_REDIS_URL);
      try {
        const remote = new ClobBookReads(new ClobEventBus(redis, h.prefix, pino({ level: 'silent' })));
        const stored = await remote.view(a.id);
        expect(stored).toMatchObject({ yes: after.yes, no: after.no, hash: after.hash });
        expect(await remote.tops([b.id, a.id])).toEqual([
          { bestBid: { yes: null, no: null }, bestAsk: { yes: null, no: null }, lastPrice: { yes: null, no: null } },
          { bestBid: after.bestBid, bestAsk: after.bestAsk, lastPrice: after.lastPrice },
        ]);
      } finally {
        redis.disconnect();
      }

      // Prices: A once (named by UUID, slug and UUID in capitals), B, and what names nothing.
      const unknown = randomUUID();
      const refs = [a.id, b.marketId, a.marketId, a.id.toUpperCase(), 'no-such-market', unknown];
      const res = await get(h, `/v2/clob/prices?marketIds=${refs.join(',')}`);
      expect(res.statusCode).toBe(200);
      const prices = res.json();
      expect(prices.notFound).toEqual(['no-such-market', unknown]);
      expect(prices.prices.map((p: Json) => [p.id, p.marketId])).toEqual([
        [a.id, a.marketId],
        [b.id, b.marketId],
      ]);
      expect(prices.prices[0]).toMatchObject({
        bestBid: { yes: 4001, no: null },
        bestAsk: { yes: 6000, no: null },
        mid: { yes: 5000.5, no: null },
        spread: { yes: 1999, no: null },
        lastPrice: { yes: 5500, no: 4500 },
      });
      const nulls = { yes: null, no: null };
      expect(prices.prices[1]).toMatchObject({ bestBid: nulls, bestAsk: nulls, mid: nulls, spread: nulls, lastPrice: nulls });
      const marketA = (await get(h, `/v2/clob/markets/${a.id}`)).json();
      expect(prices.prices[0]).toMatchObject({ bestBid: marketA.bestBid, bestAsk: marketA.bestAsk, lastPrice: marketA.lastPrice });

      // Price history: the job's candles, in each outcome's bps.
      const at = (f: Json) => Math.floor(Date.parse(f.matchedAt) / 1000);
      const yesOf = (f: Json) => (f.outcome === 'yes' ? f.priceBps : 10_000 - f.priceBps);
      const expectedYes = minuteCandles(fills.map((f) => ({ at: at(f), price: yesOf(f), quantity: BigInt(f.quantity) })));
      const expectedNo = minuteCandles(fills.map((f) => ({ at: at(f), price: 10_000 - yesOf(f), quantity: BigInt(f.quantity) })));
      const from = at(fills[0]!) - 120;
      const to = at(fills[2]!) + 120;
      const history = (outcome: string) =>
        get(h, `/v2/clob/markets/${a.marketId}/prices-history?outcome=${outcome}&interval=1m&from=${from}&to=${to}`);
      const yes = await waitFor(
        'candles of every fill',
        async () => {
          const body = (await history('yes')).json();
          return body.candles.reduce((n: bigint, c: Json) => n + BigInt(c.volume), 0n) === 4n * USDC ? body : undefined;
        },
        15_000,
      );
      expect(yes).toEqual({ marketId: a.id, outcome: 'yes', interval: '1m', candles: expectedYes });
      expect((await history('no')).json().candles).toEqual(expectedNo);
      const day = (await get(h, `/v2/clob/markets/${a.id}/prices-history?outcome=yes&interval=1d&from=${from}&to=${to}`)).json();
      expect(day.candles.at(-1)).toMatchObject({ close: 5500, volume: expect.any(String) });

      // The table the job kept equals a rebuild from the fills.
      const db = h.daemon.db.db;
      expect(await fillsNeedingCandles(db, 10)).toEqual([]);
      const kept = await allMarketCandles(db, a.id);
      await rebuildCandles({ db }, a.id);
      expect(await allMarketCandles(db, a.id)).toEqual(kept);
    },
    120_000,
  );

  it.skipIf(!available)('refuses bad input with a clear 400 (404 for an unknown market)', async () => {
    const market = await createClobMarket(h);
    const codeOf = async (url: string) => {
      const res = await get(h, url);
      return [res.statusCode, res.json().error, res.json().message];
    };
    const many = Array.from({ length: 101 }, () => randomUUID()).join(',');
    expect(await codeOf('/v2/clob/prices')).toEqual([400, 'VALIDATION_ERROR', expect.stringMatching(/marketIds/)]);
    expect(await codeOf(`/v2/clob/prices?marketIds=${many}`)).toEqual([400, 'INVALID_MARKET_IDS', expect.stringMatching(/at most 100/)]);
    expect(await codeOf(`/v2/clob/prices?marketIds=${market.id},,x`)).toEqual([400, 'INVALID_MARKET_IDS', expect.stringMatching(/empty/)]);
    expect(await codeOf(`/v2/clob/prices?marketIds=a%20b`)).toEqual([400, 'INVALID_MARKET_IDS', expect.stringMatching(/"a b"/)]);
    expect(await codeOf(`/v2/clob/prices?marketIds=${'x'.repeat(81)}`)).toEqual([400, 'INVALID_MARKET_IDS', expect.any(String)]);

    const hist = `/v2/clob/markets/${market.id}/prices-history`;
    expect(await codeOf(`${hist}?outcome=yes&interval=2m`)).toEqual([400, 'VALIDATION_ERROR', expect.stringMatching(/interval/)]);
    expect(await codeOf(`${hist}?outcome=maybe&interval=1m`)).toEqual([400, 'VALIDATION_ERROR', expect.stringMatching(/outcome/)]);
    expect(await codeOf(`${hist}?interval=1m`)).toEqual([400, 'VALIDATION_ERROR', expect.stringMatching(/outcome/)]);
    expect(await codeOf(`${hist}?outcome=yes&interval=1m&from=abc`)).toEqual([400, 'VALIDATION_ERROR', expect.stringMatching(/from/)]);
    expect(await codeOf(`${hist}?outcome=yes&interval=1m&to=-5`)).toEqual([400, 'VALIDATION_ERROR', expect.stringMatching(/to/)]);
    expect(await codeOf(`${hist}?outcome=yes&interval=1m&from=1.5`)).toEqual([400, 'VALIDATION_ERROR', expect.stringMatching(/from/)]);
    expect(await codeOf(`${hist}?outcome=yes&interval=1m&from=200&to=100`)).toEqual([400, 'INVALID_RANGE', 'from (200) is after to (100)']);
    // 1,000 one-minute buckets are the most one answer holds; 1,001 are refused.
    expect((await get(h, `${hist}?outcome=yes&interval=1m&from=0&to=${999 * 60 + 59}`)).json()).toMatchObject({ candles: [] });
    expect(await codeOf(`${hist}?outcome=yes&interval=1m&from=0&to=${1_000 * 60}`)).toEqual([
      400,
      'INVALID_RANGE',
      expect.stringMatching(/1001 candles of 1m; at most 1000/),
    ]);
    expect(await codeOf(`/v2/clob/markets/${randomUUID()}/prices-history?outcome=yes&interval=1h`)).toEqual([
      404,
      'MARKET_NOT_FOUND',
      expect.any(String),
    ]);
    // Defaults: to = now, from = 1,000 buckets back; a new market has no candle.
    expect((await get(h, `${hist}?outcome=no&interval=1d`)).json()).toEqual({
      marketId: market.id,
      outcome: 'no',
      interval: '1d',
      candles: [],
    });
  });
});
