/** Positions and PnL, worked examples with every number written out (raw units, 6 decimals). */
import { describe, expect, it } from 'vitest';
import {
  applyBuy,
  applyMerge,
  applyMove,
  applyOwnerMove,
  applyRedemption,
  applySell,
  applySplit,
  avgEntryPrice,
  currentPrice,
  EMPTY_POSITION,
  fillMoves,
  unrealizedPnl,
} from '../../../src/domain/orderbook/index.js';

describe('positions', () => {
  it('buy, partial sell, mark to the mid', () => {
    // Buy 100 YES at 6000: 60 USDC + taker fee 25 bps = 0.15 → cost 60.15.
    const bought = applyBuy(EMPTY_POSITION, 100_000_000n, 60_000_000n, 150_000n);
    expect(bought).toEqual({ netQuantity: 100_000_000n, totalCost: 60_150_000n, totalProceeds: 0n, totalFees: 150_000n, realizedPnl: 0n });
    expect(avgEntryPrice(bought)).toBe(6015);
    // Sell 40 at 7000: 28 USDC, fee 0.07; cost of what is sold floor(60.15 × 40 / 100) = 24.06.
    const sold = applySell(bought, 40_000_000n, 28_000_000n, 70_000n);
    expect(sold).toEqual({
      netQuantity: 60_000_000n,
      totalCost: 36_090_000n,
      totalProceeds: 28_000_000n,
      totalFees: 220_000n,
      realizedPnl: 3_870_000n,
    });
    // Mid of 6400 and 6600 = 6500: 60 × 0.65 = 39 − 36.09 = 2.91.
    expect(unrealizedPnl(sold, currentPrice(6400, 6600))).toBe(2_910_000n);
    expect(currentPrice(null, 6600)).toBe(6600);
    expect(unrealizedPnl(sold, currentPrice(null, null))).toBeNull();
  });

  it('resolution values the position at 10000 or 0; redemption realises it', () => {
    const p = applyBuy(EMPTY_POSITION, 10_000_000n, 3_000_000n, 7_500n); // 10 at 3000, fee 0.0075
    expect(unrealizedPnl(p, 10_000)).toBe(10_000_000n - 3_007_500n);
    expect(unrealizedPnl(p, 0)).toBe(-3_007_500n);
    const redeemed = applyRedemption(p, 10_000_000n);
    expect(redeemed).toMatchObject({ netQuantity: 0n, totalCost: 0n, totalProceeds: 10_000_000n, realizedPnl: 6_992_500n });
  });

  it('a complementary fill is a buy for both owners; the maker rebate is a negative fee', () => {
    // Taker buys 10 YES at 7000 against a maker's NO bid at 3000: 7 + 3 USDC into the vault.
    const moves = fillMoves({
      maker_owner: 'm',
      taker_owner: 't',
      taker_side: 'buy',
      outcome: 'yes',
      maker_side: 'buy',
      maker_outcome: 'no',
      quantity: 10_000_000n,
      usdc_amount: 7_000_000n,
      maker_usdc: 3_000_000n,
      taker_fee: 17_500n,
      maker_rebate: 3_500n,
    });
    expect(moves).toEqual([
      { owner: 't', outcome: 'yes', side: 'buy', quantity: 10_000_000n, usdc: 7_000_000n, fee: 17_500n },
      { owner: 'm', outcome: 'no', side: 'buy', quantity: 10_000_000n, usdc: 3_000_000n, fee: -3_500n },
    ]);
    expect(applyMove(EMPTY_POSITION, moves[1]!)).toMatchObject({ totalCost: 2_996_500n, totalFees: -3_500n });
  });

  it('a sale of tokens the positions job has not seen arrive counts their split first, on both outcomes', () => {
    // Split 10 USDC → 10 YES + 10 NO (not seen yet), then sell 10 YES at 6000 (6 USDC, fee 0.015).
    const pair = { yes: EMPTY_POSITION, no: EMPTY_POSITION };
    const sold = applyOwnerMove(pair, { owner: 'o', outcome: 'yes', side: 'sell', quantity: 10_000_000n, usdc: 6_000_000n, fee: 15_000n });
    // The split: 5 USDC for the YES, 5 for the NO. Realised on YES: 6 − 5 − 0.015 = 0.985.
    expect(sold.yes).toEqual({ netQuantity: 0n, totalCost: 0n, totalProceeds: 6_000_000n, totalFees: 15_000n, realizedPnl: 985_000n });
    expect(sold.no).toEqual({ netQuantity: 10_000_000n, totalCost: 5_000_000n, totalProceeds: 0n, totalFees: 0n, realizedPnl: 0n });
    // Cash: −10 (split) + 6 − 0.015 = −4.015; PnL at NO = 3000: 0.985 + (3 − 5) = −1.015 = −4.015 + 10 NO × 0.3.
  });

  it('a split costs 5000 each side (YES carries the odd raw unit); a merge sells both at 5000', () => {
    const split = applySplit({ yes: EMPTY_POSITION, no: EMPTY_POSITION }, 7n);
    expect([split.yes.totalCost, split.no.totalCost]).toEqual([4n, 3n]);
    const merged = applyMerge(split, 7n);
    expect([merged.yes.realizedPnl, merged.no.realizedPnl, merged.yes.netQuantity, merged.no.netQuantity]).toEqual([0n, 0n, 0n, 0n]);
  });

  it('a redemption is a sale without fee at 10000 (won) or 0 (lost)', () => {
    const p = applyBuy(EMPTY_POSITION, 4_000_000n, 1_000_000n, 0n); // 4 at 2500
    expect(applyRedemption(p, 4_000_000n, false)).toMatchObject({ netQuantity: 0n, totalCost: 0n, realizedPnl: -1_000_000n });
    expect(applyRedemption(p, 4_000_000n, true)).toMatchObject({ netQuantity: 0n, realizedPnl: 3_000_000n });
  });
});
