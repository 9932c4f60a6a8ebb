/**
 * Worked examples of each fill type settled on the embedded cluster, with every balance written
 * out (raw units; 1 USDC = 1 000 000; fees 25 bps taker, 5 bps maker rebate). Each example also
 * runs the same two orders through the real matching engine and checks the receipt holds exactly
 * the engine's amounts.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderBook, type Fill } from '../../../src/domain/orderbook/index.js';
import type { FillReceiptAccount } from '@pmx/programs';
import { SettleHarness, USDC, type TestOrder } from './settle-harness.js';

let s: SettleHarness;
beforeAll(async () => {
  s = await SettleHarness.open();
});
afterAll(async () => {
  await s.close();
});

/** The engine's fill for maker then taker (both as signed). */
function engineFill(maker: TestOrder, taker: TestOrder): Fill {
  const book = new OrderBook({ marketId: 'm' });
  const req = (o: TestOrder, id: string) => ({
    id,
    owner: o.owner.publicKey.toBase58(),
    side: o.terms.side,
    outcome: o.terms.outcome,
    priceBps: o.terms.priceBps,
    quantity: o.terms.quantity,
    expiry: 2e9,
  });
  book.place(req(maker, 'maker'));
  const fills = book.place(req(taker, 'taker')).fills;
  expect(fills).toHaveLength(1);
  return fills[0]!;
}

function expectEngineAmounts(r: FillReceiptAccount, f: Fill): void {
  expect({
    type: r.fillType,
    price: r.priceBps,
    q: r.quantity,
    t: r.takerUsdc,
    m: r.makerUsdc,
    fee: r.takerFee,
    rebate: r.makerRebate,
    protocol: r.protocolFee,
    dust: r.roundingDust,
  }).toEqual({
    type: f.fillType,
    price: f.priceBps,
    q: f.quantity,
    t: f.usdcAmount,
    m: f.makerUsdc,
    fee: f.takerFee,
    rebate: f.makerRebate,
    protocol: f.protocolFee,
    dust: f.roundingDust,
  });
}

describe('settle: worked examples', () => {
  it('direct, taker buys: 40 YES at 0.60 (maker asks 0.60, taker bids up to 0.65)', async () => {
    const m = await s.createMarket();
    const buyer = await s.trader(100n * USDC);
    const seller = await s.trader(0n, m, 50n * USDC); // 50 YES + 50 NO, vault 50 000 000
    const ask = s.order(seller, m, { side: 'sell', outcome: 'yes', priceBps: 6000, quantity: 40n * USDC });
    const bid = s.order(buyer, m, { side: 'buy', outcome: 'yes', priceBps: 6500, quantity: 40n * USDC });
    const fee0 = s.feeUsdc();
    const fill = s.fill(bid, ask, 40n * USDC, 'direct');
    await s.settle(m, [fill]);
    // Buyer pays 24 000 000 + fee 60 000; seller receives 24 000 000 + rebate 12 000; protocol 48 000.
    expect(s.usdc(buyer)).toBe(100_000_000n - 24_060_000n);
    expect(s.tokens(buyer, m, 'yes')).toBe(40_000_000n);
    expect(s.usdc(seller)).toBe(24_012_000n);
    expect([s.tokens(seller, m, 'yes'), s.tokens(seller, m, 'no')]).toEqual([10_000_000n, 50_000_000n]);
    expect(s.feeUsdc() - fee0).toBe(48_000n);
    expect([s.vault(m), s.supply(m, 'yes'), s.supply(m, 'no'), s.completeSets(m)]).toEqual([
      50_000_000n,
      50_000_000n,
      50_000_000n,
      50_000_000n,
    ]);
    const r = s.receipt(fill.fillId)!;
    expectEngineAmounts(r, engineFill(ask, bid));
    expect(s.orderState(bid)).toMatchObject({
      filled: 40_000_000n,
      usdc: 24_000_000n,
      takerUsdc: 24_000_000n,
      feesPaid: 60_000n,
      fills: 1,
    });
    expect(s.orderState(ask)).toMatchObject({ filled: 40_000_000n, usdc: 24_000_000n, takerUsdc: 0n, rebates: 12_000n, fills: 1 });
  });

  it('direct, taker sells: 10 YES into a 0.60 bid (taker asks at least 0.55)', async () => {
    const m = await s.createMarket();
    const buyer = await s.trader(20n * USDC);
    const seller = await s.trader(0n, m, 10n * USDC);
    const bid = s.order(buyer, m, { side: 'buy', outcome: 'yes', priceBps: 6000, quantity: 10n * USDC });
    const ask = s.order(seller, m, { side: 'sell', outcome: 'yes', priceBps: 5500, quantity: 10n * USDC });
    const fee0 = s.feeUsdc();
    const fill = s.fill(ask, bid, 10n * USDC, 'direct');
    await s.settle(m, [fill]);
    // Seller (taker) receives 6 000 000 − fee 15 000; buyer (maker) pays 6 000 000 − rebate 3 000.
    expect(s.usdc(seller)).toBe(5_985_000n);
    expect(s.tokens(seller, m, 'yes')).toBe(0n);
    expect(s.usdc(buyer)).toBe(20_000_000n - 5_997_000n);
    expect(s.tokens(buyer, m, 'yes')).toBe(10_000_000n);
    expect(s.feeUsdc() - fee0).toBe(12_000n);
    expect(s.vault(m)).toBe(10_000_000n);
    expectEngineAmounts(s.receipt(fill.fillId)!, engineFill(bid, ask));
  });

  it('complementary: YES 0.70 + NO 0.30 on 10 mints 10 sets into the vault', async () => {
    const m = await s.createMarket();
    const yesBuyer = await s.trader(10n * USDC);
    const noBuyer = await s.trader(5n * USDC);
    const noBid = s.order(noBuyer, m, { side: 'buy', outcome: 'no', priceBps: 3000, quantity: 10n * USDC });
    const yesBid = s.order(yesBuyer, m, { side: 'buy', outcome: 'yes', priceBps: 7000, quantity: 10n * USDC });
    const fee0 = s.feeUsdc();
    const fill = s.fill(yesBid, noBid, 10n * USDC, 'complementary');
    await s.settle(m, [fill]);
    // YES buyer (taker) pays 7 000 000 + fee 17 500; NO buyer (maker) pays 3 000 000 − rebate 3 500.
    expect(s.usdc(yesBuyer)).toBe(10_000_000n - 7_017_500n);
    expect(s.usdc(noBuyer)).toBe(5_000_000n - 2_996_500n);
    expect([s.tokens(yesBuyer, m, 'yes'), s.tokens(noBuyer, m, 'no')]).toEqual([10_000_000n, 10_000_000n]);
    expect(s.feeUsdc() - fee0).toBe(14_000n);
    expect([s.vault(m), s.supply(m, 'yes'), s.supply(m, 'no'), s.completeSets(m)]).toEqual([
      10_000_000n,
      10_000_000n,
      10_000_000n,
      10_000_000n,
    ]);
    expectEngineAmounts(s.receipt(fill.fillId)!, engineFill(noBid, yesBid));
  });

  it('sell_complementary: YES 0.60 + NO 0.40 on 5 burns 5 sets out of the vault', async () => {
    const m = await s.createMarket();
    const yesHolder = await s.trader(0n, m, 5n * USDC);
    const noHolder = await s.trader(0n, m, 5n * USDC); // vault 10 000 000, 10 sets
    const noAsk = s.order(noHolder, m, { side: 'sell', outcome: 'no', priceBps: 4000, quantity: 5n * USDC });
    const yesAsk = s.order(yesHolder, m, { side: 'sell', outcome: 'yes', priceBps: 6000, quantity: 5n * USDC });
    const fee0 = s.feeUsdc();
    const fill = s.fill(yesAsk, noAsk, 5n * USDC, 'sell_complementary');
    await s.settle(m, [fill]);
    // YES seller (taker) receives 3 000 000 − fee 7 500; NO seller (maker) 2 000 000 + rebate 1 500.
    expect(s.usdc(yesHolder)).toBe(2_992_500n);
    expect(s.usdc(noHolder)).toBe(2_001_500n);
    expect([s.tokens(yesHolder, m, 'yes'), s.tokens(yesHolder, m, 'no')]).toEqual([0n, 5_000_000n]);
    expect([s.tokens(noHolder, m, 'yes'), s.tokens(noHolder, m, 'no')]).toEqual([5_000_000n, 0n]);
    expect(s.feeUsdc() - fee0).toBe(6_000n);
    expect([s.vault(m), s.supply(m, 'yes'), s.supply(m, 'no'), s.completeSets(m)]).toEqual([
      5_000_000n,
      5_000_000n,
      5_000_000n,
      5_000_000n,
    ]);
    expectEngineAmounts(s.receipt(fill.fillId)!, engineFill(noAsk, yesAsk));
  });

  it('rounding dust: 3 raw units at 0.3333 — taker pays 1 + fee 1, maker receives 0, protocol gets 2', async () => {
    const m = await s.createMarket();
    const buyer = await s.trader(10n);
    const seller = await s.trader(0n, m, 3n);
    const ask = s.order(seller, m, { side: 'sell', outcome: 'yes', priceBps: 3333, quantity: 3n });
    const bid = s.order(buyer, m, { side: 'buy', outcome: 'yes', priceBps: 3333, quantity: 3n });
    const fee0 = s.feeUsdc();
    const fill = s.fill(bid, ask, 3n, 'direct');
    await s.settle(m, [fill]);
    expect(s.usdc(buyer)).toBe(8n);
    expect(s.usdc(seller)).toBe(0n);
    expect(s.feeUsdc() - fee0).toBe(2n);
    expect(s.receipt(fill.fillId)).toMatchObject({
      takerUsdc: 1n,
      makerUsdc: 0n,
      takerFee: 1n,
      makerRebate: 0n,
      protocolFee: 1n,
      roundingDust: 1n,
    });
  });

  it('an order settles across transactions: its signature travels once, its rounding stays cumulative', async () => {
    const m = await s.createMarket();
    const buyer = await s.trader(10n);
    const seller = await s.trader(0n, m, 3n);
    // A resting bid of 3 raw units at 0.3333 filled one unit at a time: ceil(0.3333) = 1 for the
    // first unit, then ceil(0.6666) − 1 = 0 and ceil(0.9999) − 1 = 0: 1 raw unit in all, never 3.
    const bid = s.order(buyer, m, { side: 'buy', outcome: 'yes', priceBps: 3333, quantity: 3n });
    const paid: bigint[] = [];
    for (let i = 0; i < 3; i++) {
      const ask = s.order(seller, m, { side: 'sell', outcome: 'yes', priceBps: 3333, quantity: 1n });
      const fill = s.fill(ask, bid, 1n, 'direct');
      const b = s.batch(m, [fill], { lookupTables: [await s.ensureLookupTable(m, [fill])] });
      // Only the new ask's signature travels once the bid has its account.
      expect(b.newOrders).toHaveLength(i === 0 ? 2 : 1);
      const before = s.usdc(buyer);
      await s.settle(m, [fill]);
      paid.push(before - s.usdc(buyer));
    }
    expect(paid).toEqual([1n, 0n, 0n]);
    expect(s.orderState(bid)).toMatchObject({ filled: 3n, notional: 9999n, usdc: 1n, fills: 3 });
    expect(s.tokens(buyer, m, 'yes')).toBe(3n);
  });

  it('a taker sweeping three makers: one receipt each, the taker fee cumulative across transactions', async () => {
    const m = await s.createMarket();
    const buyer = await s.trader(100n * USDC);
    const sellers = [await s.trader(0n, m, 10n * USDC), await s.trader(0n, m, 10n * USDC), await s.trader(0n, m, 10n * USDC)];
    const asks = sellers.map((k, i) => s.order(k, m, { side: 'sell', outcome: 'yes', priceBps: 5000 + 100 * i, quantity: 10n * USDC }));
    const bid = s.order(buyer, m, { side: 'buy', outcome: 'yes', priceBps: 5500, quantity: 30n * USDC });
    const fills = asks.map((a) => s.fill(bid, a, 10n * USDC, 'direct', randomUUID()));
    // Each fill brings a new order's signature (~305 bytes), two to a transaction: the taker's and
    // the first maker's, then the two other makers' with their fills.
    expect(await s.settle(m, fills)).toEqual([1, 2].map((n) => ({ kind: 'settle', fills: n })));
    // 5 000 000 + 5 100 000 + 5 200 000 = 15 300 000; fees cumulative: ceil(15 300 000 × 25 / 10 000) = 38 250.
    expect(s.usdc(buyer)).toBe(100_000_000n - 15_300_000n - 38_250n);
    expect(sellers.map((k) => s.usdc(k))).toEqual([5_002_500n, 5_102_550n, 5_202_600n]);
    expect(fills.map((f) => s.receipt(f.fillId)!.priceBps)).toEqual([5000, 5100, 5200]);
  });
});
