import { describe, expect, it } from 'vitest';
import { computeFees, LIQUIDITY_FEE_BPS } from '../../src/amm/index.js';

describe('fees', () => {
  it('matches the public example: buy 100 USDC at 2 %', () => {
    // tradeFee = 100_000_000 × 200 / 10_000 = 2_000_000; liquidityFee = 100_000_000 × 150 / 10_000
    const f = computeFees(100_000_000n, 200n);
    expect(LIQUIDITY_FEE_BPS).toBe(150n);
    expect(f).toEqual({
      tradeFee: 2_000_000n,
      liquidityFee: 1_500_000n,
      creatorFee: 1_000_000n,
      protocolFee: 1_000_000n,
      net: 96_500_000n,
    });
  });

  it('rounds fees up and gives the odd raw unit to the protocol', () => {
    // 100_001 × 300 / 10_000 = 3000.03 → 3001; 100_001 × 150 / 10_000 = 1500.015 → 1501
    const f = computeFees(100_001n, 300n);
    expect(f.tradeFee).toBe(3001n);
    expect(f.liquidityFee).toBe(1501n);
    expect(f.creatorFee).toBe(1500n);
    expect(f.protocolFee).toBe(1501n);
    expect(f.net).toBe(100_001n - 3001n - 1501n);
  });
});
