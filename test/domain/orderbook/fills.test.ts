/**
 * Worked examples for the three fill types and the rounding cases. Amounts are raw units
 * (1 token = 1 USDC = 1,000,000); prices are bps. Fees at the defaults: taker 25 bps, maker
 * rebate 5 bps, protocol 20 bps.
 */
import { describe, expect, it } from 'vitest';
import { orderNeed, DEFAULT_FEES } from '../../../src/domain/orderbook/index.js';
import { newBook, order } from './helpers.js';

describe('direct fills', () => {
  it('taker buy YES at 6500 takes a YES ask at 6000: maker price, taker keeps the improvement', () => {
    const book = newBook();
    const ask = book.place(order({ owner: 'maker', side: 'sell', outcome: 'yes', priceBps: 6000, quantity: 100_000_000n }));
    expect(ask.order.status).toBe('open');
    expect(ask.order.committedAmount).toBe(100_000_000n); // a sell commits its tokens
    const r = book.place(order({ owner: 'taker', side: 'buy', outcome: 'yes', priceBps: 6500, quantity: 40_000_000n }));
    expect(r.order.status).toBe('filled');
    expect(r.fills).toHaveLength(1);
    const f = r.fills[0]!;
    expect(f).toMatchObject({
      fillType: 'direct',
      outcome: 'yes',
      priceBps: 6000,
      quantity: 40_000_000n,
      makerOwner: 'maker',
      takerOwner: 'taker',
    });
    // usdc = 40,000,000 × 6000 / 10000 = 24,000,000 (40 tokens at 0.60)
    expect(f.usdcAmount).toBe(24_000_000n);
    expect(f.makerUsdc).toBe(24_000_000n);
    // taker fee 25 bps of 24,000,000 = 60,000; rebate 5 bps = 12,000; protocol 48,000
    expect([f.takerFee, f.makerRebate, f.protocolFee, f.roundingDust]).toEqual([60_000n, 12_000n, 48_000n, 0n]);
    expect(r.makersChanged[0]).toMatchObject({ id: ask.order.id, remaining: 60_000_000n });
    expect(r.levels).toEqual([{ outcome: 'yes', side: 'sell', priceBps: 6000, size: 60_000_000n }]);
    expect(book.top()).toEqual({ bestBid: { yes: null, no: null }, bestAsk: { yes: 6000, no: null }, lastPrice: { yes: 6000, no: 4000 } });
  });

  it('taker sell YES at 5000 hits the best YES bid first (price, then time)', () => {
    const book = newBook();
    const early = book.place(order({ owner: 'a', side: 'buy', outcome: 'yes', priceBps: 5500, quantity: 1_000_000n }));
    const late = book.place(order({ owner: 'b', side: 'buy', outcome: 'yes', priceBps: 5500, quantity: 1_000_000n }));
    book.place(order({ owner: 'c', side: 'buy', outcome: 'yes', priceBps: 5200, quantity: 1_000_000n }));
    const r = book.place(order({ owner: 't', side: 'sell', outcome: 'yes', priceBps: 5000, quantity: 1_500_000n }));
    expect(r.fills.map((f) => [f.makerOrderId, f.priceBps, f.quantity])).toEqual([
      [early.order.id, 5500, 1_000_000n],
      [late.order.id, 5500, 500_000n],
    ]);
    // taker receives 1,000,000 × 0.55 = 550,000 then 500,000 × 0.55 = 275,000; fee ceil-cumulative:
    // ceil(550,000 × 25 / 10000) = 1,375; ceil(825,000 × 25 / 10000) = 2,063 (2,062.5) → second fill 688
    expect(r.fills.map((f) => [f.usdcAmount, f.takerFee, f.makerRebate])).toEqual([
      [550_000n, 1_375n, 275n],
      [275_000n, 688n, 137n], // rebate floor(275,000 × 5 / 10000) = 137 (137.5)
    ]);
    expect(r.order).toMatchObject({ status: 'filled', usdc: 825_000n, takerFee: 2_063n });
  });
});

describe('complementary fills (buy YES + buy NO, sum ≥ 10000: a set is minted)', () => {
  it('buy YES at 7500 against a NO bid at 3000 fills at YES 7000', () => {
    const book = newBook();
    book.place(order({ owner: 'maker', side: 'buy', outcome: 'no', priceBps: 3000, quantity: 10_000_000n }));
    // maker committed ceil(10,000,000 × 3000 / 10000) = 3,000,000
    expect(book.commitments.usdc('maker')).toBe(3_000_000n);
    const r = book.place(order({ owner: 'taker', side: 'buy', outcome: 'yes', priceBps: 7500, quantity: 10_000_000n }));
    const f = r.fills[0]!;
    expect(f).toMatchObject({ fillType: 'complementary', outcome: 'yes', priceBps: 7000, makerOutcome: 'no', makerPriceBps: 3000 });
    // taker pays 10 × 0.70 = 7,000,000, maker pays 10 × 0.30 = 3,000,000; vault receives 10,000,000 and mints 10 sets
    expect([f.usdcAmount, f.makerUsdc, f.roundingDust]).toEqual([7_000_000n, 3_000_000n, 0n]);
    // fee 25 bps of 7,000,000 = 17,500; rebate 3,500; protocol 14,000
    expect([f.takerFee, f.makerRebate, f.protocolFee]).toEqual([17_500n, 3_500n, 14_000n]);
    expect(book.commitments.usdc('maker')).toBe(0n);
    expect(book.top().lastPrice).toEqual({ yes: 7000, no: 3000 });
  });

  it('sums below 10000 do not match', () => {
    const book = newBook();
    book.place(order({ owner: 'maker', side: 'buy', outcome: 'no', priceBps: 3000, quantity: 1_000_000n }));
    const r = book.place(order({ owner: 'taker', side: 'buy', outcome: 'yes', priceBps: 6999, quantity: 1_000_000n }));
    expect(r.fills).toEqual([]);
    expect(r.order.status).toBe('open');
  });
});

describe('sell_complementary fills (sell YES + sell NO, sum ≤ 10000: a set is merged)', () => {
  it('sell YES at 5500 against a NO ask at 4000 fills at YES 6000', () => {
    const book = newBook();
    book.place(order({ owner: 'maker', side: 'sell', outcome: 'no', priceBps: 4000, quantity: 5_000_000n }));
    const r = book.place(order({ owner: 'taker', side: 'sell', outcome: 'yes', priceBps: 5500, quantity: 5_000_000n }));
    const f = r.fills[0]!;
    expect(f).toMatchObject({ fillType: 'sell_complementary', outcome: 'yes', priceBps: 6000, makerPriceBps: 4000 });
    // vault merges 5 sets and pays 5,000,000: taker 5 × 0.60 = 3,000,000, maker 5 × 0.40 = 2,000,000
    expect([f.usdcAmount, f.makerUsdc, f.roundingDust]).toEqual([3_000_000n, 2_000_000n, 0n]);
    expect([f.takerFee, f.makerRebate, f.protocolFee]).toEqual([7_500n, 1_500n, 6_000n]);
  });

  it('sums above 10000 do not match', () => {
    const book = newBook();
    book.place(order({ owner: 'maker', side: 'sell', outcome: 'no', priceBps: 4001, quantity: 1_000_000n }));
    expect(book.place(order({ owner: 'taker', side: 'sell', outcome: 'yes', priceBps: 6000, quantity: 1_000_000n })).fills).toEqual([]);
  });
});

describe('choosing between fill types', () => {
  it('takes the better price for the taker across direct and complementary queues', () => {
    const book = newBook();
    book.place(order({ owner: 'a', side: 'sell', outcome: 'yes', priceBps: 6100, quantity: 1_000_000n }));
    book.place(order({ owner: 'b', side: 'buy', outcome: 'no', priceBps: 4000, quantity: 1_000_000n })); // YES 6000
    const r = book.place(order({ owner: 't', side: 'buy', outcome: 'yes', priceBps: 7000, quantity: 2_000_000n }));
    expect(r.fills.map((f) => [f.fillType, f.priceBps])).toEqual([
      ['complementary', 6000],
      ['direct', 6100],
    ]);
  });

  it('at equal prices the earlier resting order goes first', () => {
    const book = newBook();
    book.place(order({ owner: 'b', side: 'buy', outcome: 'no', priceBps: 4000, quantity: 1_000_000n })); // YES 6000, earlier
    book.place(order({ owner: 'a', side: 'sell', outcome: 'yes', priceBps: 6000, quantity: 1_000_000n }));
    const r = book.place(order({ owner: 't', side: 'buy', outcome: 'yes', priceBps: 6000, quantity: 2_000_000n }));
    expect(r.fills.map((f) => f.fillType)).toEqual(['complementary', 'direct']);
  });
});

describe('rounding against the user, nothing created or lost', () => {
  it('direct: 3 raw units at 3333 — taker pays ceil(0.9999) = 1, maker receives floor = 0, 1 unit of dust', () => {
    const book = newBook();
    book.place(order({ owner: 'm', side: 'sell', outcome: 'yes', priceBps: 3333, quantity: 3n }));
    const f = book.place(order({ owner: 't', side: 'buy', outcome: 'yes', priceBps: 3333, quantity: 3n })).fills[0]!;
    // fee ceil(1 × 25 / 10000) = 1, rebate floor(1 × 5 / 10000) = 0
    expect([f.usdcAmount, f.makerUsdc, f.roundingDust, f.takerFee, f.makerRebate, f.protocolFee]).toEqual([1n, 0n, 1n, 1n, 0n, 1n]);
  });

  it('complementary: 3 units at YES 3334 / NO 6666 — ceil(1.0002) + ceil(1.9998) = 4 pays for 3 sets, dust 1', () => {
    const book = newBook();
    book.place(order({ owner: 'm', side: 'buy', outcome: 'no', priceBps: 6666, quantity: 3n }));
    const f = book.place(order({ owner: 't', side: 'buy', outcome: 'yes', priceBps: 3334, quantity: 3n })).fills[0]!;
    expect([f.usdcAmount, f.makerUsdc, f.roundingDust]).toEqual([2n, 2n, 1n]);
  });

  it('sell_complementary: 3 units at 3334 / 6666 — floor(1.0002) + floor(1.9998) = 2 of the 3 released, dust 1', () => {
    const book = newBook();
    book.place(order({ owner: 'm', side: 'sell', outcome: 'no', priceBps: 6666, quantity: 3n }));
    const f = book.place(order({ owner: 't', side: 'sell', outcome: 'yes', priceBps: 3334, quantity: 3n })).fills[0]!;
    expect([f.usdcAmount, f.makerUsdc, f.roundingDust]).toEqual([1n, 1n, 1n]);
  });

  it('a resting buy split into many fills pays exactly its committed ceil, not one ceil per fill', () => {
    const book = newBook();
    const bid = book.place(order({ owner: 'm', side: 'buy', outcome: 'yes', priceBps: 3333, quantity: 3n }));
    expect(bid.order.committedAmount).toBe(1n); // ceil(3 × 3333 / 10000) = ceil(0.9999)
    const legs = [1, 2, 3].map(
      () => book.place(order({ owner: 't', side: 'sell', outcome: 'yes', priceBps: 3333, quantity: 1n })).fills[0]!,
    );
    // maker pays ceil(0.3333) = 1, then ceil(0.6666) − 1 = 0, then ceil(0.9999) − 1 = 0: total 1 = committed
    expect(legs.map((f) => f.makerUsdc)).toEqual([1n, 0n, 0n]);
    // each taker receives floor(0.3333) = 0; the first unit is dust
    expect(legs.map((f) => [f.usdcAmount, f.roundingDust])).toEqual([
      [0n, 1n],
      [0n, 0n],
      [0n, 0n],
    ]);
  });

  it('complementary with both cumulative floors short: the taker pays the missing unit (covered by orderNeed)', () => {
    const book = newBook();
    const nBid = book.place(order({ owner: 'b', side: 'buy', outcome: 'no', priceBps: 5000, quantity: 2n }));
    // c's complementary fill leaves the NO bid having paid ceil(0.5) = 1 for its first unit
    expect(book.place(order({ owner: 'c', side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 1n })).fills[0]!.makerUsdc).toBe(1n);
    book.place(order({ owner: 'a', side: 'sell', outcome: 'yes', priceBps: 4999, quantity: 1n }));
    // taker: 1 unit direct at 4999 pays ceil(0.4999) = 1; then 1 unit complementary at YES 5000: its cumulative
    // ceil(0.9999) − 1 = 0 and the NO maker's ceil(1.0) − 1 = 0, but the vault needs 1 to mint a set: the taker
    // pays it (total 2 = ceil(2 × 5000 / 10000) + the 1 unit of slack orderNeed holds)
    const r = book.place(order({ owner: 't', side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 2n }));
    expect(r.fills.map((f) => [f.fillType, f.makerOrderId === nBid.order.id, f.usdcAmount, f.makerUsdc, f.roundingDust])).toEqual([
      ['direct', false, 1n, 0n, 1n],
      ['complementary', true, 1n, 0n, 0n],
    ]);
    const need = orderNeed('buy', 5000, 2n, DEFAULT_FEES);
    expect(r.order.usdc + r.order.takerFee).toBeLessThanOrEqual(need.usdc);
  });
});
