/**
 * Issue 25, part 3: orders a smart wallet can no longer pay for leave the book at once. A
 * withdrawal (or merge) built while the wallet was free, landed after orders committed its money,
 * leaves the wallet below its commitments: the index pass that reads the landed balance has the
 * matchers cancel the owner's resting orders, newest first across markets, reason
 * `insufficient_balance`, with an `order:cancelled` event each, until the rest is covered — before
 * any taker arrives, so no innocent seller's fill fails. Real cluster transactions throughout.
 */
import type { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clobWrite,
  createClobMarket,
  depositedTrader,
  get,
  openClobHarness,
  place,
  post,
  signAndSendV0,
  USDC,
  waitFor,
  type CHarness,
} from './family-c.harness.js';
import { WsClient, wsUrl, type Frame } from './ws-client.js';

let h: CHarness;
beforeAll(async () => {
  h = await openClobHarness();
});
afterAll(async () => h?.close());

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Builds a smart-wallet transaction through the API (checked against the wallet as it is now) without sending it. */
async function build(url: string, payload: Record<string, unknown>): Promise<string> {
  const res = await post(h, url, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().transaction as string;
}

async function userEvents(owner: Keypair): Promise<WsClient> {
  const ws = await WsClient.open(wsUrl(h.daemon.url!, 'user'));
  expect((await ws.command({ type: 'subscribe', pubkey: owner.publicKey.toBase58() })).event).toBe('subscribed');
  return ws;
}

const cancelledEvent = (id: string) => (f: Frame | string) => typeof f === 'object' && f.event === 'order:cancelled' && f.order?.id === id;
const order = async (id: string): Promise<Json> => (await get(h, `/v2/clob/orders/${id}`)).json().order;
const balances = async (owner: Keypair): Promise<Json> =>
  (await get(h, `/v2/clob/account/balances?pubkey=${owner.publicKey.toBase58()}`)).json();

describe('orders a wallet can no longer pay for', () => {
  it('a withdrawal built before the bids, landed after: the bids leave the book before a taker arrives', async () => {
    const market = await createClobMarket(h);
    const maker = await depositedTrader(h, 100n * USDC);
    const seller = await depositedTrader(h, 50n * USDC);
    const mk = maker.publicKey.toBase58();
    await clobWrite(
      h,
      '/v2/clob/account/split',
      { pubkey: seller.publicKey.toBase58(), marketId: market.id, amount: String(20n * USDC) },
      seller,
    );
    const ws = await userEvents(maker);

    // The reproduction: build a 100 USDC withdraw, then bids committing 90 USDC (accepted), then land the withdraw.
    const withdraw = await build('/v2/clob/account/withdraw', { pubkey: mk, amount: String(100n * USDC) });
    const bids = [
      await place(h, maker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 60n * USDC }),
      await place(h, maker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 4000, quantity: 150n * USDC }),
    ];
    expect(bids.map((b) => b.status)).toEqual(['open', 'open']);
    expect((await balances(maker)).totalCommitted).toBe(String(90n * USDC));
    await signAndSendV0(h, withdraw, maker);

    for (const bid of bids) await ws.waitFor(cancelledEvent(bid.orderId), 10_000);
    for (const bid of bids)
      expect(await order(bid.orderId)).toMatchObject({ status: 'cancelled', cancelReason: 'insufficient_balance', committedAmount: '0' });
    expect(await balances(maker)).toMatchObject({ smartWalletBalance: '0', totalCommitted: '0' });
    const book = (await get(h, `/v2/clob/markets/${market.id}/orderbook`)).json();
    expect(book.yes.bids).toEqual([]);

    // The taker arrives: nothing rests to fill against, so no fill can fail.
    const sell = await place(h, seller, {
      market: market.marketPubkey,
      side: 'sell',
      outcome: 'yes',
      priceBps: 4000,
      quantity: 10n * USDC,
      timeInForce: 'ioc',
    });
    expect(sell.fills).toEqual([]);
    ws.close();
  }, 60_000);

  it('cancels newest first across markets, only until the rest is covered', async () => {
    const [m1, m2] = [await createClobMarket(h), await createClobMarket(h)];
    const maker = await depositedTrader(h, 100n * USDC);
    const mk = maker.publicKey.toBase58();
    const ws = await userEvents(maker);
    const withdraw = await build('/v2/clob/account/withdraw', { pubkey: mk, amount: String(50n * USDC) });
    // Three bids of 30 USDC each: A (market 1, oldest), B (market 2), C (market 1, newest). 90 committed.
    const a = await place(h, maker, { market: m1.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 60n * USDC });
    const b = await place(h, maker, { market: m2.marketPubkey, side: 'buy', outcome: 'no', priceBps: 3000, quantity: 100n * USDC });
    const c = await place(h, maker, { market: m1.marketPubkey, side: 'buy', outcome: 'no', priceBps: 2000, quantity: 150n * USDC });
    await signAndSendV0(h, withdraw, maker);

    // 50 left against 90 committed, shortfall 40: C (30) leaves 10, then B (30) covers it; A stays.
    await ws.waitFor(cancelledEvent(c.orderId), 10_000);
    await ws.waitFor(cancelledEvent(b.orderId), 10_000);
    expect(await order(c.orderId)).toMatchObject({ status: 'cancelled', cancelReason: 'insufficient_balance' });
    expect(await order(b.orderId)).toMatchObject({ status: 'cancelled', cancelReason: 'insufficient_balance' });
    const after = await waitFor('balance reported', async () => {
      const x = await balances(maker);
      return x.smartWalletBalance === String(50n * USDC) ? x : undefined;
    });
    expect(after).toMatchObject({ totalCommitted: String(30n * USDC), withdrawable: String(20n * USDC) });
    expect(await order(a.orderId)).toMatchObject({ status: 'open', committedAmount: String(30n * USDC) });
    expect(ws.events.filter((f) => f.event === 'order:cancelled').map((f) => f.order.id)).toEqual([c.orderId, b.orderId]);
    ws.close();
  }, 60_000);

  it('a merge landed after sells: the sells of that outcome leave, newest first, until the tokens cover the rest', async () => {
    const market = await createClobMarket(h);
    const maker = await depositedTrader(h, 50n * USDC);
    const mk = maker.publicKey.toBase58();
    await clobWrite(h, '/v2/clob/account/split', { pubkey: mk, marketId: market.id, amount: String(10n * USDC) }, maker);
    await waitFor('split indexed', async () => ((await balances(maker)).markets[0]?.yesTokens === String(10n * USDC) ? true : undefined));
    const ws = await userEvents(maker);
    const merge = await build('/v2/clob/account/merge', { pubkey: mk, marketId: market.id, amount: String(5n * USDC) });
    const asks = [];
    for (const quantity of [3n, 3n, 4n])
      asks.push(
        await place(h, maker, { market: market.marketPubkey, side: 'sell', outcome: 'yes', priceBps: 7000, quantity: quantity * USDC }),
      );
    const noAsk = await place(h, maker, { market: market.marketPubkey, side: 'sell', outcome: 'no', priceBps: 7000, quantity: 5n * USDC });
    await signAndSendV0(h, merge, maker);

    // 5 YES left against 10 committed, shortfall 5: the newest ask (4) leaves 1, the next (3) covers it; NO's 5 are covered.
    await ws.waitFor(cancelledEvent(asks[2]!.orderId), 10_000);
    await ws.waitFor(cancelledEvent(asks[1]!.orderId), 10_000);
    expect(await order(asks[0]!.orderId)).toMatchObject({ status: 'open' });
    expect(await order(noAsk.orderId)).toMatchObject({ status: 'open' });
    expect(await order(asks[2]!.orderId)).toMatchObject({ status: 'cancelled', cancelReason: 'insufficient_balance' });
    ws.close();
  }, 60_000);

  it('the scheduled full pass cancels what the notifications missed', async () => {
    const market = await createClobMarket(h);
    const maker = await depositedTrader(h, 30n * USDC);
    const ws = await userEvents(maker);
    const withdraw = await build('/v2/clob/account/withdraw', { pubkey: maker.publicKey.toBase58(), amount: String(30n * USDC) });
    const bid = await place(h, maker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 20n * USDC });
    // The notification's re-read is dropped: only the full pass reads the landed withdrawal.
    const index = h.daemon.queues.get('index');
    await index.pause();
    try {
      await signAndSendV0(h, withdraw, maker);
      await waitFor('the notification job queued', async () => ((await index.getWaitingCount()) > 0 ? true : undefined));
      await index.drain();
      await h.daemon.queues.enqueue('clob.index.full', { reason: 'test' });
    } finally {
      await index.resume();
    }
    await ws.waitFor(cancelledEvent(bid.orderId), 15_000);
    expect(await order(bid.orderId)).toMatchObject({ status: 'cancelled', cancelReason: 'insufficient_balance' });
    ws.close();
  }, 60_000);
});
