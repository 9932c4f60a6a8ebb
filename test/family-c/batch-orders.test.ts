/**
 * Issue 30, batch placement: `POST /v2/clob/orders/batch` places up to 20 signed orders of any
 * markets and owners, answering each in request order with its placement or its error in the
 * Family C envelope (orders of one market matched in request order, so a later order can take an
 * earlier one); bad input answers a 4xx; a batch of N orders counts N against the write limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createClobMarket,
  depositedTrader,
  get,
  openClobHarness,
  post,
  signedOrder,
  USDC,
  type CHarness,
  type OrderSpec,
} from './family-c.harness.js';

let h: CHarness;
beforeAll(async () => {
  h = await openClobHarness({ RATE_LIMIT_WRITE_PER_MIN: '45' });
});
afterAll(async () => h?.close());

const batch = (orders: unknown[]) => post(h, '/v2/clob/orders/batch', { orders });

describe('batch placement', () => {
  it('answers each order in request order, across markets and owners, each placed or refused on its own', async () => {
    const [one, two] = [await createClobMarket(h), await createClobMarket(h)];
    const maker = await depositedTrader(h, 40n * USDC);
    const taker = await depositedTrader(h, 40n * USDC);
    const bid = (market: string, priceBps: number): OrderSpec => ({ market, side: 'buy', outcome: 'yes', priceBps, quantity: 2n * USDC });
    const levels = [4000, 4100, 4200, 4300, 4400].map((p) => signedOrder(maker, bid(one.marketPubkey, p)));
    const again = levels[0]!; // the same signed order twice: its nonce is used by then
    const forged = {
      ...signedOrder(maker, bid(two.marketPubkey, 3000)),
      signature: signedOrder(taker, bid(two.marketPubkey, 3000)).signature,
    };
    const tooBig = signedOrder(taker, { ...bid(two.marketPubkey, 5000), quantity: 1_000n * USDC });
    // A NO buy at 5600 meets the YES bid at 4400 placed earlier in the same batch (a mint fill).
    const take = signedOrder(taker, { market: one.marketPubkey, side: 'buy', outcome: 'no', priceBps: 5600, quantity: USDC });
    const other = signedOrder(taker, bid(two.marketPubkey, 3500));

    const res = await batch([...levels, again, forged, tooBig, take, other]);
    expect(res.statusCode).toBe(200);
    const { results } = res.json();
    expect(results).toHaveLength(10);
    for (const r of results.slice(0, 5)) expect(r).toMatchObject({ status: 'open', fills: [] });
    expect(results[5]).toMatchObject({ error: 'DUPLICATE_NONCE', message: expect.any(String) });
    expect(results[6]).toMatchObject({ error: 'INVALID_SIGNATURE', message: expect.any(String) });
    expect(results[7]).toMatchObject({ error: 'INSUFFICIENT_BALANCE', available: expect.any(String), required: expect.any(String) });
    expect(results[8]).toMatchObject({ status: 'filled', fills: [{ makerOrderId: results[4].orderId, priceBps: 5600 }] });
    expect(results[9]).toMatchObject({ status: 'open' });

    const book = (await get(h, `/v2/clob/markets/${one.id}/orderbook`)).json();
    expect(book.yes.bids.map((l: { price: number }) => l.price)).toEqual([4400, 4300, 4200, 4100, 4000]);
    expect(book.yes.bids[0].size).toBe(String(USDC));
    expect((await get(h, `/v2/clob/markets/${two.id}/orderbook`)).json().yes.bids).toEqual([{ price: 3500, size: String(2n * USDC) }]);
    const mine = (await get(h, `/v2/clob/orders?pubkey=${maker.publicKey.toBase58()}`)).json().orders;
    expect(mine).toHaveLength(5);
  }, 90_000);

  it('refuses bad input with a 4xx in the Family C envelope', async () => {
    const market = await createClobMarket(h);
    const maker = await depositedTrader(h, 10n * USDC);
    const good = signedOrder(maker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 1000, quantity: USDC });
    const cases: Array<[string, unknown]> = [
      ['no orders', { orders: [] }],
      ['21 orders', { orders: Array.from({ length: 21 }, () => good) }],
      ['orders missing', {}],
      ['orders not a list', { orders: good }],
      ['an order without signature', { orders: [{ ...good, signature: undefined }] }],
      ['an order with a bad side', { orders: [{ ...good, orderMessage: { ...(good.orderMessage as object), side: 9 } }] }],
    ];
    for (const [what, body] of cases) {
      const res = await post(h, '/v2/clob/orders/batch', body);
      expect(res.statusCode, what).toBe(400);
      expect(res.json(), what).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    }
  }, 60_000);

  it('counts a batch of N orders as N writes against the limit', async () => {
    const market = await createClobMarket(h);
    const maker = await depositedTrader(h, 10n * USDC);
    // Refused orders count as well: the limit is on requests' work, not on what they placed.
    const orders = (n: number) =>
      Array.from({ length: n }, () => ({
        ...signedOrder(maker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 1000, quantity: USDC }),
        orderType: 'market',
        timeInForce: 'ioc',
      }));
    // From a client of its own (the limit is per client): 20 + 20 of 45, then 41 + 19 is past it.
    const fromOwnClient = (n: number) =>
      h.app.inject({ method: 'POST', url: '/v2/clob/orders/batch', payload: { orders: orders(n) }, remoteAddress: '10.9.8.7' });
    expect((await fromOwnClient(20)).statusCode).toBe(200);
    expect((await fromOwnClient(20)).statusCode).toBe(200);
    const over = await fromOwnClient(20);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ error: 'RATE_LIMITED' });
    expect(over.headers['retry-after']).toBeDefined();
  }, 60_000);
});
