import { describe, expect, it } from 'vitest';
import { openMarket, quoteBuy, quoteSell, vaultLiabilities } from '../../src/amm/index.js';

const SEED = 1_000_000_000n; // 1000 USDC

describe('quoteBuy (AMM)', () => {
  it('buy 100 USDC of YES at 2 % on a 1000 USDC seed', () => {
    // fees: trade 2_000_000, liquidity 1_500_000 → effective 96_500_000
    // curve: k = 1e18, NO = 1_096_500_000, YES kept = ceil(1e18 / 1_096_500_000) = 911_992_705,
    //        out = 1_000_000_000 + 96_500_000 − 911_992_705 = 184_507_295
    // liquidity fee joins both reserves: YES 913_492_705, NO 1_098_000_000
    // effectivePrice = 100 / 184.507295 = 0.54198…; impact = (96.5 / 184.507295 − 0.5) / 0.5 = 4.602 % → 461
    const q = quoteBuy(openMarket(SEED, 200n), 'YES', 100_000_000n);
    expect(q.tradeFee).toBe(2_000_000n);
    expect(q.liquidityFee).toBe(1_500_000n);
    expect(q.effectiveAmount).toBe(96_500_000n);
    expect(q.outputAmount).toBe(184_507_295n);
    expect(q.effectivePrice).toBeCloseTo(100 / 184.507295, 12);
    expect(q.priceImpactBps).toBe(461);
    expect(q.preOdds).toEqual({ yes: 0.5, no: 0.5 });
    expect(q.postOdds.yes).toBeCloseTo(1_098_000_000 / 2_011_492_705, 12);
    expect(q.postOdds.yes + q.postOdds.no).toBeCloseTo(1, 12);
    expect(q.next.yesReserve).toBe(913_492_705n);
    expect(q.next.noReserve).toBe(1_098_000_000n);
    expect(q.next.yesSupply).toBe(184_507_295n);
    expect(q.next.collateral).toBe(1_098_000_000n);
    expect(q.next.creatorFeesAccrued).toBe(1_000_000n);
    expect(q.next.protocolFeesAccrued).toBe(1_000_000n);
    // one YES + one NO is one USDC: collateral = reserve + supply on each side
    expect(q.next.yesReserve + q.next.yesSupply).toBe(q.next.collateral);
    expect(q.next.noReserve + q.next.noSupply).toBe(q.next.collateral);
    expect(vaultLiabilities(q.next)).toBe(SEED + 100_000_000n);
  });

  it('refuses dust, inactive markets and pool sells', () => {
    const m = openMarket(SEED, 200n);
    expect(() => quoteBuy(m, 'YES', 99_999n)).toThrow(/below/);
    expect(() => quoteBuy({ ...m, status: 'resolved' }, 'YES', 1_000_000n)).toThrow(/resolved/);
    expect(() => quoteSell(openMarket(0n, 200n), 'YES', 1_000_000n)).toThrow(/SellNotAllowedInPoolMode/);
    expect(() => quoteSell(m, 'YES', 1_000_000n)).toThrow(/outstanding supply/);
  });
});

describe('quoteSell (AMM)', () => {
  it('selling back everything just bought returns less than was paid', () => {
    // after the buy above: sell 184_507_295 YES. a = 1_098_000_000, b = 1_098_000_000,
    // k = 913_492_705 × 1_098_000_000, gross r = 96_493_639; fees 1_929_873 + 1_447_405
    // → 93_116_361 USDC back for 100 USDC paid.
    const bought = quoteBuy(openMarket(SEED, 200n), 'YES', 100_000_000n);
    const s = quoteSell(bought.next, 'YES', bought.outputAmount);
    expect(s.effectiveAmount).toBe(96_493_639n);
    expect(s.tradeFee).toBe(1_929_873n);
    expect(s.liquidityFee).toBe(1_447_405n);
    expect(s.outputAmount).toBe(93_116_361n);
    expect(s.effectivePrice).toBeCloseTo(93.116361 / 184.507295, 12);
    expect(s.priceImpactBps).toBe(420);
    expect(s.postOdds).toEqual({ yes: 0.5, no: 0.5 });
    expect(s.next.yesSupply).toBe(0n);
    expect(s.next.collateral).toBe(1_002_953_766n);
    expect(vaultLiabilities(s.next)).toBe(SEED + 100_000_000n - 93_116_361n);
  });
});

describe('quoteBuy (Pool)', () => {
  it('mints two tokens per net USDC at a fixed 50/50 price', () => {
    // 100 USDC at 2 % → net 96_500_000 → 193_000_000 tokens; pot = net + liquidity fee
    const q = quoteBuy(openMarket(0n, 200n), 'NO', 100_000_000n);
    expect(q.outputAmount).toBe(193_000_000n);
    expect(q.effectivePrice).toBeCloseTo(100 / 193, 12);
    expect(q.priceImpactBps).toBe(0);
    expect(q.preOdds).toEqual({ yes: 0.5, no: 0.5 });
    expect(q.postOdds).toEqual({ yes: 0.5, no: 0.5 });
    expect(q.next.noSupply).toBe(193_000_000n);
    expect(q.next.collateral).toBe(98_000_000n);
  });
});
