// The solvency rules of the Money page, on the worked examples of packages/programs/docs/programs.md
// (numbers written out here, not computed by the code under test), and vaults made short by
// feeding the rules decoded numbers that no sound program would produce.
import type { MarketState } from '@pmx/programs';
import { describe, expect, it } from 'vitest';
import { familyBOwedToHolders, familyBSolvency, orderbookSolvency, solBalanceOk } from '../../../src/domain/solvency/solvency-rules.js';

/** The docs' AMM example: seed 1000 USDC at 200 bps, then a buy of 100 USDC of YES. */
const amm: MarketState = {
  mode: 'amm',
  status: 'active',
  winningSide: null,
  tradeFeeBps: 200n,
  yesReserve: 913_492_705n,
  noReserve: 1_098_000_000n,
  yesSupply: 184_507_295n,
  noSupply: 0n,
  collateral: 1_098_000_000n,
  creatorFeesAccrued: 1_000_000n,
  creatorFeesClaimed: 0n,
  protocolFeesAccrued: 1_000_000n,
  protocolFeesClaimed: 0n,
};

/** The docs' Pool example: 100 USDC at 200 bps → 193 000 000 YES tokens; the pot grows by 98 000 000. */
const pool: MarketState = {
  ...amm,
  mode: 'pool',
  yesReserve: 0n,
  noReserve: 0n,
  yesSupply: 193_000_000n,
  noSupply: 0n,
  collateral: 98_000_000n,
};

describe('Family B vault rule', () => {
  it('an active AMM owes its holders the larger supply, and its books hold collateral + unclaimed fees', () => {
    expect(familyBOwedToHolders(amm)).toBe(184_507_295n);
    // Vault = 1 100 000 000 (seed 1000 + 100 bought); required = max(184 507 295 + 2 000 000, 1 098 000 000 + 2 000 000).
    expect(familyBSolvency(amm, 1_100_000_000n)).toEqual({
      owedToHolders: 184_507_295n,
      unclaimedFees: 2_000_000n,
      books: 1_100_000_000n,
      required: 1_100_000_000n,
      shortfall: 0n,
      ok: true,
    });
    expect(familyBSolvency(amm, 1_099_999_999n)).toMatchObject({ shortfall: 1n, ok: false });
  });

  it('claimed fees leave the liabilities', () => {
    const claimed = { ...amm, creatorFeesClaimed: 1_000_000n, protocolFeesClaimed: 1_000_000n };
    expect(familyBSolvency(claimed, 1_098_000_000n)).toMatchObject({ unclaimedFees: 0n, required: 1_098_000_000n, ok: true });
  });

  it('a resolved AMM owes the winning supply (the surplus went to the creator at resolution)', () => {
    // YES wins: surplus 913 492 705 paid out, collateral = the YES supply.
    const resolved = { ...amm, status: 'resolved' as const, winningSide: 'YES' as const, collateral: 184_507_295n };
    expect(familyBSolvency(resolved, 186_507_295n)).toMatchObject({ owedToHolders: 184_507_295n, required: 186_507_295n, ok: true });
    const noWins = { ...resolved, winningSide: 'NO' as const, noSupply: 7n, collateral: 7n };
    expect(familyBOwedToHolders(noWins)).toBe(7n);
  });

  it('a pool owes its whole pot, not its token supply (a pool token costs 0.5 USDC)', () => {
    expect(familyBOwedToHolders(pool)).toBe(98_000_000n);
    expect(familyBSolvency(pool, 100_000_000n)).toMatchObject({ required: 100_000_000n, ok: true });
    expect(familyBSolvency({ ...pool, status: 'resolved', winningSide: 'YES' }, 100_000_000n).ok).toBe(true);
  });

  it('a cancelled market owes what is left of its collateral, pro rata', () => {
    // The docs' example: reserves 91 / 110, 19 YES held, collateral 110; the creator took 100.
    const cancelled = { ...amm, status: 'cancelled' as const, yesReserve: 0n, noReserve: 0n, yesSupply: 19n, collateral: 10n };
    expect(familyBSolvency(cancelled, 2_000_010n)).toMatchObject({ owedToHolders: 10n, required: 2_000_010n, ok: true });
  });

  it('liabilities above the vault fail: supply beyond the collateral (a broken account) and a drained vault', () => {
    // Decoded numbers no sound program produces: 150 YES tokens each redeeming 1 raw USDC, 100 collateral.
    const broken = { ...amm, yesReserve: 0n, noReserve: 0n, yesSupply: 150n, noSupply: 40n, collateral: 100n };
    expect(familyBSolvency(broken, 2_000_100n)).toMatchObject({
      owedToHolders: 150n,
      required: 2_000_150n,
      shortfall: 50n,
      ok: false,
    });
    expect(familyBSolvency(amm, 0n)).toMatchObject({ shortfall: 1_100_000_000n, ok: false });
  });
});

describe('orderbook vault rule', () => {
  const active = { resolved: false, outcome: null, yesSupply: 10_000_000n, noSupply: 10_000_000n };

  it('before resolution a YES + NO pair is backed by 1 USDC: the vault owes the larger supply', () => {
    expect(orderbookSolvency(active, 10_000_000n)).toEqual({ required: 10_000_000n, shortfall: 0n, ok: true });
    expect(orderbookSolvency({ ...active, noSupply: 12_000_000n }, 10_000_000n)).toEqual({
      required: 12_000_000n,
      shortfall: 2_000_000n,
      ok: false,
    });
  });

  it('after resolution the vault owes the winning supply only', () => {
    const resolved = { resolved: true, outcome: 'no' as const, yesSupply: 10_000_000n, noSupply: 4_000_000n };
    expect(orderbookSolvency(resolved, 4_000_000n)).toMatchObject({ required: 4_000_000n, ok: true });
    expect(orderbookSolvency({ ...resolved, outcome: 'yes' }, 4_000_000n)).toMatchObject({ shortfall: 6_000_000n, ok: false });
  });
});

describe('SOL thresholds', () => {
  it('a paying wallet is low below its threshold; a receiving one never is', () => {
    expect(solBalanceOk(50_000_000n, 50_000_000n)).toBe(true);
    expect(solBalanceOk(49_999_999n, 50_000_000n)).toBe(false);
    expect(solBalanceOk(0n, null)).toBe(true);
  });
});
