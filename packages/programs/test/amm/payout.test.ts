import { describe, expect, it } from 'vitest';
import {
  cancelAllowed,
  cancelMarket,
  claimCreatorFees,
  openMarket,
  quoteBuy,
  redeemPayout,
  resolveMarket,
  type MarketState,
} from '../../src/amm/index.js';

const ctx = { mintsInitialized: true, now: 100n, resolutionTime: 50n };

function ammWithBothSides(): MarketState {
  const a = quoteBuy(openMarket(1_000_000_000n, 200n), 'YES', 100_000_000n).next;
  return quoteBuy(a, 'NO', 50_000_000n).next;
}

describe('resolution and redemption', () => {
  it('AMM: the creator takes the winning reserve, winners get 1 USDC per token', () => {
    const m = ammWithBothSides();
    const { creatorSurplus, next } = resolveMarket(m, 'YES');
    expect(creatorSurplus).toBe(m.collateral - m.yesSupply);
    expect(creatorSurplus).toBe(m.yesReserve);
    expect(next.collateral).toBe(m.yesSupply);
    const r = redeemPayout(next, 'YES', 1_000_000n);
    expect(r.payout).toBe(1_000_000n);
    expect(redeemPayout(next, 'NO', 1_000_000n).payout).toBe(0n);
  });

  it('Pool: winners split the pot pro rata, rounding down, the last one takes the rest', () => {
    // pot 100, winning supply 3 holders of 1 token: 33, 33, then 34
    const m: MarketState = { ...openMarket(0n, 200n), yesSupply: 3n, noSupply: 5n, collateral: 100n };
    let s = resolveMarket(m, 'YES').next;
    const paid: bigint[] = [];
    for (let i = 0; i < 3; i++) {
      const r = redeemPayout(s, 'YES', 1n);
      paid.push(r.payout);
      s = r.next;
    }
    expect(paid).toEqual([33n, 33n, 34n]);
    expect(s.collateral).toBe(0n);
  });

  it('refuses NoOpposition, double resolution and early redemption', () => {
    const oneSided = quoteBuy(openMarket(1_000_000_000n, 200n), 'YES', 1_000_000n).next;
    expect(() => resolveMarket(oneSided, 'YES')).toThrow(/no holder/);
    const resolved = resolveMarket(ammWithBothSides(), 'NO').next;
    expect(() => resolveMarket(resolved, 'NO')).toThrow(/resolved/);
    expect(() => redeemPayout(ammWithBothSides(), 'YES', 1n)).toThrow(/MarketNotResolved/);
  });
});

describe('cancellation', () => {
  it('is allowed only when the market can never resolve', () => {
    const oneSided = quoteBuy(openMarket(1_000_000_000n, 200n), 'YES', 1_000_000n).next;
    expect(cancelAllowed(oneSided, ctx)).toBe(true);
    expect(cancelAllowed(oneSided, { ...ctx, now: 10n })).toBe(false);
    expect(cancelAllowed(ammWithBothSides(), ctx)).toBe(false);
    expect(cancelAllowed(openMarket(5_000_000n, 200n), { ...ctx, mintsInitialized: false, now: 0n })).toBe(true);
    expect(() => cancelMarket(ammWithBothSides(), ctx)).toThrow(/still be resolved/);
  });

  it('AMM: reserves 91/110, YES supply 19, collateral 110 → creator 100, users share 10', () => {
    const m: MarketState = { ...openMarket(1_000_000n, 200n), yesReserve: 91n, noReserve: 110n, yesSupply: 19n, collateral: 110n };
    const { creatorRefund, next } = cancelMarket(m, ctx);
    expect(creatorRefund).toBe(100n); // floor(110 × 201 / 220)
    expect(next.status).toBe('cancelled');
    expect(redeemPayout(next, 'YES', 19n).payout).toBe(10n);
  });

  it('Pool: the whole pot goes back to holders pro rata', () => {
    const m = quoteBuy(openMarket(0n, 200n), 'YES', 10_000_000n).next;
    const { creatorRefund, next } = cancelMarket(m, ctx);
    expect(creatorRefund).toBe(0n);
    expect(redeemPayout(next, 'YES', m.yesSupply).payout).toBe(m.collateral);
  });

  it('fee claims pay accrued − claimed once', () => {
    const m = ammWithBothSides();
    const c = claimCreatorFees(m);
    expect(c.amount).toBe(1_000_000n + 500_000n);
    expect(claimCreatorFees(c.next).amount).toBe(0n);
  });
});
