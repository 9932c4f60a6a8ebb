/**
 * Family C orders on a real stack (embedded cluster, SQLite, Redis, the matcher in-process): two
 * traders deposit; one rests bids and asks in both outcomes; the other takes them with limit,
 * market, ioc and fok orders, producing all three fill types; cancels; the book, the trades,
 * the orders and the balances change as the public facts say.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelAllText, cancelOrderText } from '../../src/domain/signed-message.js';
import { signText } from '../helpers/sign.js';
import {
  createClobMarket,
  depositedTrader,
  get,
  openClobHarness,
  place,
  post,
  signedOrder,
  USDC,
  type CHarness,
} from './family-c.harness.js';

let h: CHarness;
beforeAll(async () => {
  h = await openClobHarness();
});
afterAll(async () => h?.close());

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const balances = async (pubkey: string) => (await get(h, `/v2/clob/account/balances?pubkey=${pubkey}`)).json();

describe('orders', () => {
  it('rests, matches all three fill types, cancels and reports book, trades, orders and balances', async () => {
    const market = await createClobMarket(h);
    const m = market.marketPubkey;
    const maker = await depositedTrader(h, 200n * USDC);
    const taker = await depositedTrader(h, 200n * USDC);
    const mk = maker.publicKey.toBase58();

    // The maker needs outcome tokens to ask: split 50 USDC into 50 YES + 50 NO.
    const split = await post(h, '/v2/clob/account/split', { pubkey: mk, marketId: market.id, amount: (50n * USDC).toString() });
    expect(split.statusCode).toBe(200);
    const { signAndSendV0, waitFor } = await import('./family-c.harness.js');
    await signAndSendV0(h, split.json().transaction, maker);
    await waitFor('split indexed', async () => ((await balances(mk)).markets[0]?.noTokens === '50000000' ? true : undefined));

    const bidYes = await place(h, maker, { market: m, side: 'buy', outcome: 'yes', priceBps: 4000, quantity: 10n * USDC });
    expect(bidYes).toMatchObject({ status: 'open', fills: [], committedAmount: '4000000' });
    const askYes = await place(h, maker, { market: m, side: 'sell', outcome: 'yes', priceBps: 6000, quantity: 10n * USDC });
    expect(askYes).toMatchObject({ status: 'open', committedAmount: '10000000' });
    await place(h, maker, { market: m, side: 'buy', outcome: 'no', priceBps: 3000, quantity: 10n * USDC });
    const askNo = await place(h, maker, { market: m, side: 'sell', outcome: 'no', priceBps: 7000, quantity: 10n * USDC });
    expect(askNo.status).toBe('open');

    const book = (await get(h, `/v2/clob/markets/${market.id}/orderbook`)).json();
    expect(book.yes).toEqual({ bids: [{ price: 4000, size: '10000000' }], asks: [{ price: 6000, size: '10000000' }] });
    expect(book.no).toEqual({ bids: [{ price: 3000, size: '10000000' }], asks: [{ price: 7000, size: '10000000' }] });
    expect((await get(h, `/v2/clob/markets/${market.id}`)).json()).toMatchObject({
      bestBid: { yes: 4000, no: 3000 },
      bestAsk: { yes: 6000, no: 7000 },
    });

    // withdrawable: 200 − 50 split − 4 − 3 committed by the two bids.
    expect((await balances(mk)).withdrawable).toBe(String(143n * USDC));

    // Direct: the taker buys 4 YES at up to 6000 (limit, gtc) from the YES ask.
    const direct = await place(h, taker, { market: m, side: 'buy', outcome: 'yes', priceBps: 6500, quantity: 4n * USDC });
    expect(direct).toMatchObject({
      status: 'filled',
      fills: [
        {
          priceBps: 6000,
          quantity: '4000000',
          usdcAmount: '2400000',
          takerFee: '6000',
          makerRebate: '1200',
          protocolFee: '4800',
          fillType: 'direct',
        },
      ],
    });

    // Complementary: the taker buys YES at 7000 (ioc); the NO bid at 3000 prices YES at 7000 — but
    // the YES ask at 6000 is better and goes first (6 left), then the complementary NO bid.
    const comp = await place(h, taker, { market: m, side: 'buy', outcome: 'yes', priceBps: 7000, quantity: 8n * USDC, timeInForce: 'ioc' });
    expect(comp.fills.map((f: { fillType: string; priceBps: number; quantity: string }) => [f.fillType, f.priceBps, f.quantity])).toEqual([
      ['direct', 6000, '6000000'],
      ['complementary', 7000, '2000000'],
    ]);
    expect(comp.status).toBe('filled');

    // To sell, the taker needs settled tokens of its own (bought ones count once settled): split 5 USDC.
    const tSplit = await post(h, '/v2/clob/account/split', {
      pubkey: taker.publicKey.toBase58(),
      marketId: market.id,
      amount: (5n * USDC).toString(),
    });
    await signAndSendV0(h, tSplit.json().transaction, taker);
    await waitFor('taker split indexed', async () =>
      (await balances(taker.publicKey.toBase58())).markets[0]?.noTokens === '5000000' ? true : undefined,
    );
    // A market sell of NO at worst 5000 meets NO bids (3000: below its worst price) and YES asks
    // (all taken): nothing crosses, so this always-IOC order ends cancelled without fills.
    const none = await place(h, taker, {
      market: m,
      side: 'sell',
      outcome: 'no',
      priceBps: 5000,
      quantity: 3n * USDC,
      orderType: 'market',
    });
    expect(none).toMatchObject({ status: 'cancelled', fills: [] });
    // sell_complementary: a YES ask at 5500 prices NO at 4500 for a NO seller; both sell, the set is merged.
    const askYes2 = await place(h, maker, { market: m, side: 'sell', outcome: 'yes', priceBps: 5500, quantity: 5n * USDC });
    expect(askYes2.status).toBe('open');
    const sellComp = await place(h, taker, {
      market: m,
      side: 'sell',
      outcome: 'no',
      priceBps: 4000,
      quantity: 2n * USDC,
      orderType: 'market',
    });
    expect(sellComp.fills.map((f: { fillType: string; priceBps: number }) => [f.fillType, f.priceBps])).toEqual([
      ['sell_complementary', 4500],
    ]);

    // FOK that cannot fill entirely is refused whole.
    const fok = await place(h, taker, { market: m, side: 'buy', outcome: 'no', priceBps: 7000, quantity: 100n * USDC, timeInForce: 'fok' });
    expect(fok).toMatchObject({ status: 'cancelled', fills: [] });

    // Cancel one (signed by the owner), then cancel all (fresh timestamp).
    const wrong = await post(h, `/v2/clob/orders/${bidYes.orderId}/cancel`, {
      pubkey: taker.publicKey.toBase58(),
      signature: b64(signText(taker, cancelOrderText(bidYes.orderId))),
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error).toBe('INVALID_SIGNATURE');
    const cancel = await post(h, `/v2/clob/orders/${bidYes.orderId}/cancel`, {
      pubkey: mk,
      signature: b64(signText(maker, cancelOrderText(bidYes.orderId))),
    });
    expect(cancel.json()).toMatchObject({ success: true, status: 'cancelled', cancelled: true });
    const ts = Math.floor(Date.now() / 1000);
    const all = await post(h, '/v2/clob/orders/cancel-all', {
      pubkey: mk,
      marketId: '*',
      timestamp: ts,
      signature: b64(signText(maker, cancelAllText('*', ts))),
    });
    expect(all.statusCode).toBe(200);
    expect(all.json().cancelled.length).toBeGreaterThan(0);
    const empty = (await get(h, `/v2/clob/markets/${market.id}/orderbook`)).json();
    expect(empty.yes.bids).toEqual([]);
    expect(empty.no.asks).toEqual([]);

    const trades = (await get(h, `/v2/clob/markets/${market.id}/trades`)).json();
    expect(trades.trades.length).toBe(4);
    // The keeper settles them in the background: matched, then settling, then settled.
    expect(trades.trades.every((t: { status: string }) => ['matched', 'settling', 'settled'].includes(t.status))).toBe(true);
    const orders = (await get(h, `/v2/clob/orders?pubkey=${mk}`)).json();
    expect(orders.orders.length).toBe(5);
    expect(orders.orders.every((o: { status: string }) => ['cancelled', 'settling', 'filled'].includes(o.status))).toBe(true);
    const one = (await get(h, `/v2/clob/orders/${askYes.orderId}`)).json();
    expect(one.order).toMatchObject({ remainingQuantity: '0', originalQuantity: '10000000' });
    expect(['settling', 'filled']).toContain(one.order.status);

    // Nonces are single use.
    const replay = signedOrder(maker, { market: m, side: 'buy', outcome: 'yes', priceBps: 100, quantity: 1n * USDC, nonce: 42n });
    expect((await post(h, '/v2/clob/orders', replay)).statusCode).toBe(200);
    const again = await post(h, '/v2/clob/orders', replay);
    expect(again.json().error).toBe('DUPLICATE_NONCE');
  });

  // A validly signed ioc/fok/market order with the largest i64 expiry used to reach the matcher as
  // 2^63, overflow the 64-bit column and fail its whole batch (503, nonce never used: replayable).
  it('refuses an expiry beyond 30 days for every time in force, and the market goes on matching', async () => {
    const market = await createClobMarket(h);
    const m = market.marketPubkey;
    const maker = await depositedTrader(h, 20n * USDC);
    const taker = await depositedTrader(h, 20n * USDC);
    const far = (1n << 63n) - 1n;
    const thirtyOneDays = BigInt(Math.floor(Date.now() / 1000) + 31 * 86_400);
    const specs = [
      { timeInForce: 'ioc' as const, expiry: far },
      { timeInForce: 'fok' as const, expiry: far },
      { orderType: 'market' as const, expiry: far },
      { timeInForce: 'ioc' as const, expiry: thirtyOneDays },
      { timeInForce: 'gtc' as const, expiry: far },
    ];
    for (const spec of specs) {
      const body = signedOrder(taker, { market: m, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: USDC, ...spec });
      const res = await post(h, '/v2/clob/orders', body);
      expect([res.statusCode, res.json().error], JSON.stringify(body)).toEqual([400, 'INVALID_ORDER']);
    }
    // Nothing of it reached the matcher: the market still matches (a NO bid meets a YES buy).
    const bid = await place(h, maker, { market: m, side: 'buy', outcome: 'no', priceBps: 5000, quantity: USDC });
    const take = await place(h, taker, { market: m, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: USDC, timeInForce: 'ioc' });
    expect(bid.status).toBe('open');
    expect(take).toMatchObject({ status: 'filled', fills: [{ fillType: 'complementary', quantity: String(USDC) }] });
  });
});
