/** Positions and PnL, worked examples with every number written out (raw units, 6 decimals). */
import { describe, expect, it } from 'vitest';
import {
  applyBuy, applyMove, applyRedemption, applySell, avgEntryPrice, currentPrice, EMPTY_POSITION, fillMoves, unrealizedPnl,
} from '../../../src/domain/orderbook/index.js';

describe('positions', () => {
  it('buy, partial sell, mark to the mid', () => {
    // Buy 100 YES at 6000: 60 USDC + taker fee 25 bps = 0.15 → cost 60.15.
    const bought = applyBuy(EMPTY_POSITION, 100_000_000n, 60_000_000n, 150_000n);
    expect(bought).toEqual({ netQuantity: 100_000_000n, totalCost: 60_150_000n, totalProceeds: 0n, totalFees: 150_000n, realizedPnl: 0n });
    expect(avgEntryPrice(bought)).toBe(6015);
    // Sell 40 at 7000: 28 USDC, fee 0.07; cost of what is sold floor(60.15 × 40 / 100) = 24.06.
    const sold = applySell(bought, 40_000_000n, 28_000_000n, 70_000n);
    expect(sold).toEqual({ netQuantity: 60_000_000n, totalCost: 36_090_000n, totalProceeds: 28_000_000n, totalFees: 220_000n, realizedPnl: 3_870_000n });
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
      maker_owner: 'm', taker_owner: 't', taker_side: 'buy', outcome: 'yes', maker_side: 'buy', maker_outcome: 'no',
      quantity: 10_000_000n, usdc_amount: 7_000_000n, maker_usdc: 3_000_000n, taker_fee: 17_500n, maker_rebate: 3_500n,
    });
    expect(moves).toEqual([
      { owner: 't', outcome: 'yes', side: 'buy', quantity: 10_000_000n, usdc: 7_000_000n, fee: 17_500n },
      { owner: 'm', outcome: 'no', side: 'buy', quantity: 10_000_000n, usdc: 3_000_000n, fee: -3_500n },
    ]);
    expect(applyMove(EMPTY_POSITION, moves[1]!)).toMatchObject({ totalCost: 2_996_500n, totalFees: -3_500n });
  });

  it('selling tokens that came from a split costs them at par (5000)', () => {
    // Split 10 USDC → 10 YES + 10 NO (no fill), then sell 10 YES at 6000 (6 USDC, fee 0.015).
    const p = applySell(EMPTY_POSITION, 10_000_000n, 6_000_000n, 15_000n);
    // Cost of the split YES: 10 × 0.5 = 5 USDC → realised 6 − 5 − 0.015 = 0.985.
    expect(p).toEqual({ netQuantity: 0n, totalCost: 0n, totalProceeds: 6_000_000n, totalFees: 15_000n, realizedPnl: 985_000n });
  });
});
