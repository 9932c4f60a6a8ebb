/**
 * Family C's WebSocket channels end to end, as a trading bot uses them: real sockets (`ws`) to
 * the daemon's HTTP port, a real stack behind (embedded cluster, SQLite, Redis bus, the matcher).
 * The bot subscribes to a market (by slug) and to its two wallets' user events, deposits, rests a
 * bid, takes it, cancels the rest, the settlement keeper reports progress and the operator
 * resolves the market: every event arrives once, in order, with the documented shapes, and the
 * market channel's sequence numbers run without a gap from the book snapshot on.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelOrderText } from '../../src/domain/signed-message.js';
import { signText } from '../helpers/sign.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';
import {
  admin,
  clobWrite,
  createClobMarket,
  get,
  openClobHarness,
  place,
  post,
  trader,
  USDC,
  waitForBalance,
  type CHarness,
} from './family-c.harness.js';
import { WsClient, wsUrl, type Frame } from './ws-client.js';

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

const isEvent = (name: string) => (f: Frame | string) => typeof f === 'object' && f.event === name;

describe('WebSocket channels', () => {
  it('deliver every book, trade, order, fill and balance event of a bot’s session in order', async () => {
    const market = await createClobMarket(h);
    const maker = await trader(h, 200n * USDC);
    const taker = await trader(h, 200n * USDC);
    const [mk, tk] = [maker.publicKey.toBase58(), taker.publicKey.toBase58()];

    const user = await WsClient.open(wsUrl(h.daemon.url!, 'user'));
    expect(await user.command({ type: 'subscribe', pubkey: mk })).toEqual({ event: 'subscribed', pubkey: mk, markets: ['*'] });
    expect(await user.command({ type: 'subscribe', pubkey: tk, markets: [market.marketId] })).toEqual({
      event: 'subscribed',
      pubkey: tk,
      markets: [market.id],
    });
    const book = await WsClient.open(wsUrl(h.daemon.url!, 'market'));
    expect(await book.command({ type: 'subscribe', markets: [market.marketId] })).toEqual({ event: 'subscribed', markets: [market.id] });
    const snapshot = await book.waitFor(isEvent('book'));
    expect(snapshot).toEqual({
      event: 'book',
      seq: 0,
      status: 'active',
      marketId: market.id,
      yes: { bids: [], asks: [] },
      no: { bids: [], asks: [] },
      bestBid: { yes: null, no: null },
      bestAsk: { yes: null, no: null },
      lastPrice: { yes: null, no: null },
      timestamp: expect.any(Number),
    });

    // Deposits: balance:update once the indexer has read each smart wallet.
    for (const t of [maker, taker]) {
      await clobWrite(h, '/v2/clob/account/deposit', { pubkey: t.publicKey.toBase58(), amount: String(100n * USDC) }, t);
      await waitForBalance(h, t, 100n * USDC);
    }
    for (const owner of [mk, tk]) {
      const update = await user.waitFor((f) => isEvent('balance:update')(f) && (f as Frame).owner === owner);
      expect(update).toMatchObject({
        owner,
        balance: { pubkey: owner, smartWalletBalance: '100000000', withdrawable: '100000000' },
        timestamp: expect.any(Number),
      });
    }

    // The maker rests a YES bid; the taker buys NO at 6000 against it (complementary: both buy, a set is minted).
    const bid = await place(h, maker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 4000, quantity: 10n * USDC });
    const take = await place(h, taker, { market: market.marketPubkey, side: 'buy', outcome: 'no', priceBps: 6000, quantity: 4n * USDC });
    expect(take.status).toBe('filled');
    const fillId = take.fills[0].id as string;
    const cancel = await post(h, `/v2/clob/orders/${bid.orderId}/cancel`, {
      pubkey: mk,
      signature: Buffer.from(signText(maker, cancelOrderText(bid.orderId))).toString('base64'),
    });
    expect(cancel.statusCode).toBe(200);

    // The settlement keeper settles the fill on chain: settling, then settled, for both wallets.
    for (const owner of [mk, tk]) await user.waitFor((f) => isEvent('fill:settled')(f) && (f as Frame).owner === owner);
    await book.waitFor((f) => isEvent('trade')(f) && (f as Frame).trade?.status === 'settled');
    // The settlement's balance change reaches the taker (the keeper gathers a group's token-account
    // changes into one index job: one reaction per owner per group), and a change after that
    // gathered window is reported too.
    const balanceOf = (f: Frame | string) =>
      isEvent('balance:update')(f) && (f as Frame).owner === tk ? BigInt((f as Frame).balance.smartWalletBalance as string) : null;
    const afterFill = balanceOf(await user.waitFor((f) => (balanceOf(f) ?? 100n * USDC) < 100n * USDC, 10_000));
    await clobWrite(h, '/v2/clob/account/deposit', { pubkey: tk, amount: String(USDC) }, taker);
    await user.waitFor((f) => balanceOf(f) === afterFill! + USDC, 10_000);

    expect((await admin(h, `/v2/admin/clob/markets/${market.id}/resolve`, { outcome: 'yes' })).statusCode).toBe(200);
    await book.waitFor(isEvent('market_resolved'));
    await user.waitFor(isEvent('fill:settled'));

    // The market channel: book, then every event in seq order without a gap. The settled trade is
    // published by the keeper, concurrently with the cancel: it may come before or after its events.
    const marketFrames = book.events.slice(2);
    expect(marketFrames.map((f) => f.seq)).toEqual(marketFrames.map((_, i) => i + 1));
    const settledAt = marketFrames.findIndex((f) => f.event === 'trade' && f.trade.status === 'settled');
    expect(settledAt).toBeGreaterThan(2);
    const matcherFrames = marketFrames.filter((_, i) => i !== settledAt);
    expect(matcherFrames.map((f) => [f.event, f.outcome, f.side, f.price, f.size])).toEqual([
      ['price_change', 'yes', 'buy', 4000, '10000000'],
      ['best_bid_ask', undefined, undefined, undefined, undefined],
      ['trade', undefined, undefined, undefined, undefined],
      ['price_change', 'yes', 'buy', 4000, '6000000'],
      ['price_change', 'yes', 'buy', 4000, '0'], // size "0": the level is gone
      ['best_bid_ask', undefined, undefined, undefined, undefined],
      ['market_resolved', 'yes', undefined, undefined, undefined],
    ]);
    for (const f of marketFrames) expect(f).toMatchObject({ marketId: market.id, timestamp: expect.any(Number) });
    expect(matcherFrames[1]).toMatchObject({ bestBid: { yes: 4000, no: null }, bestAsk: { yes: null, no: null } });
    expect(matcherFrames[2]!.trade).toEqual({
      id: fillId,
      marketId: market.id,
      outcome: 'no',
      priceBps: 6000,
      quantity: '4000000',
      takerSide: 'buy',
      fillType: 'complementary',
      status: 'matched',
      matchedAt: take.fills[0].matchedAt,
    });
    expect(matcherFrames[5]).toMatchObject({ bestBid: { yes: null, no: null } });
    expect(marketFrames[settledAt]!.trade).toMatchObject({ id: fillId, status: 'settled', settleTx: expect.any(String) });
    expect(matcherFrames[6]).toMatchObject({ status: 'resolved', outcome: 'yes' });

    // The user channel: each wallet's events, in the order they happened (the keeper's fill events
    // run beside the cancel; per wallet they are in order). Every event of one batch carries the
    // order as REST shows it once the batch committed: the taker filled at once reads `settling`
    // (filled, its fill on its way to the chain) in both its events.
    const all = user.events.filter((f) => f.event !== 'balance:update' && f.event !== 'subscribed');
    const orderEvents = all.filter((f) => !['fill:settling', 'fill:settled'].includes(f.event));
    expect(orderEvents.map((f) => [f.event, f.owner === mk ? 'maker' : 'taker', f.order?.status ?? f.fill?.status])).toEqual([
      ['order:placed', 'maker', 'open'],
      ['order:placed', 'taker', 'settling'],
      ['order:filled', 'taker', 'settling'],
      ['order:partially_filled', 'maker', 'partially_filled'],
      ['fill:matched', 'maker', 'matched'],
      ['fill:matched', 'taker', 'matched'],
      ['order:cancelled', 'maker', 'cancelled'],
    ]);
    for (const owner of [mk, tk]) {
      // settling repeats while the orders are first registered on chain (one transaction each), then the fill travels.
      const seen = all.filter((f) => f.owner === owner && f.event.startsWith('fill:')).map((f) => f.event as string);
      expect(seen.filter((e, i) => e !== seen[i - 1])).toEqual(['fill:matched', 'fill:settling', 'fill:settled']);
    }
    expect(orderEvents[0]!.order).toMatchObject({
      id: bid.orderId,
      marketId: market.id,
      ownerPubkey: mk,
      side: 'buy',
      outcome: 'yes',
      priceBps: 4000,
      originalQuantity: '10000000',
      remainingQuantity: '10000000',
    });
    expect(orderEvents[3]!.order).toMatchObject({ id: bid.orderId, remainingQuantity: '6000000' });
    expect(orderEvents[4]!.fill).toMatchObject({
      id: fillId,
      makerOrderId: bid.orderId,
      takerOrderId: take.orderId,
      makerPubkey: mk,
      takerPubkey: tk,
      priceBps: 6000,
      quantity: '4000000',
      usdcAmount: '2400000',
      takerFee: '6000',
      makerRebate: '1200',
      protocolFee: '4800',
      fillType: 'complementary',
      retryCount: 0,
      batchId: null,
    });
    const settling = all.filter((f) => f.event === 'fill:settling').at(-1)!;
    const settled = all.find((f) => f.event === 'fill:settled')!;
    expect(settling.fill).toMatchObject({ status: 'settling', retryCount: 0, batchId: expect.any(String) });
    expect(settled.fill).toMatchObject({ status: 'settled', settleTx: expect.any(String), batchId: settling.fill.batchId });
    for (const f of all) expect(f).toMatchObject({ marketId: market.id, timestamp: expect.any(Number) });

    // Liveness and the REST view agree with what the socket said.
    book.send('PING');
    await book.waitFor((f) => f === 'PONG');
    const rest = (await get(h, `/v2/clob/markets/${market.id}/orderbook`)).json();
    expect(rest.yes).toEqual({ bids: [], asks: [] });
    book.close();
    user.close();
  });

  it('answers a plain GET with 426 in Family C’s envelope', async () => {
    const res = await get(h, '/v2/ws/market');
    expect(res.statusCode).toBe(426);
    expect(res.json()).toEqual({ error: 'UPGRADE_REQUIRED', message: expect.stringContaining('/v2/ws/market') });
  });
});
