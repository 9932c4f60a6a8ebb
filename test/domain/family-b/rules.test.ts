import { describe, expect, it } from 'vitest';
import { type MarketState, openMarket, quoteBuy, resolveMarket } from '@pmx/programs';
import { createMarketProblem, RESOLUTION_TIME_MAX, RESOLUTION_TIME_MIN } from '../../../src/domain/family-b/create-rules.js';
import { positionFigures } from '../../../src/domain/family-b/positions.js';
import { slugFor } from '../../../src/domain/family-b/slug.js';

const valid = {
  title: 'Will it rain?',
  description: 'Rain in Lisbon on 1 Dec',
  yesTicker: 'RAIN',
  noTicker: 'DRY',
  resolutionTime: 1_900_000_000,
  seedAmount: 1_000_000n,
  tradeFeeBps: 200,
};

describe('createMarketProblem', () => {
  it('accepts the spec limits at their edges', () => {
    expect(createMarketProblem(valid)).toBeNull();
    expect(createMarketProblem({ ...valid, seedAmount: 0n })).toBeNull(); // Pool mode
    expect(createMarketProblem({ ...valid, tradeFeeBps: 100 })).toBeNull();
    expect(createMarketProblem({ ...valid, tradeFeeBps: 400 })).toBeNull();
    expect(createMarketProblem({ ...valid, resolutionTime: RESOLUTION_TIME_MIN + 1 })).toBeNull();
    expect(createMarketProblem({ ...valid, resolutionTime: RESOLUTION_TIME_MAX - 1 })).toBeNull();
  });

  it.each([
    [{ resolutionTime: 0 }, /resolutionTime/],
    [{ resolutionTime: -5 }, /resolutionTime/],
    [{ resolutionTime: RESOLUTION_TIME_MIN }, /resolutionTime/],
    [{ resolutionTime: 4_102_444_800 }, /resolutionTime/], // 2100
    [{ seedAmount: 999_999n }, /seedAmount/],
    [{ tradeFeeBps: 99 }, /tradeFeeBps/],
    [{ tradeFeeBps: 401 }, /tradeFeeBps/],
    [{ yesTicker: 'up', noTicker: 'UP' }, /differ/],
    [{ yesTicker: 'NO', noTicker: 'MAYBE' }, /other side/],
    [{ yesTicker: 'NO', noTicker: 'YES' }, /other side/], // a full swap is as misleading as a partial one
    [{ yesTicker: 'up', noTicker: 'yes' }, /other side/],
    [{ title: '   ' }, /blank/],
  ])('refuses case %# (%s)', (patch, message) => {
    expect(createMarketProblem({ ...valid, ...patch })).toMatch(message);
  });
});

describe('positionFigures', () => {
  // Worked example (AMM, 2% fee, 100 USDC seed): a 10 USDC buy of YES gives `out` tokens; after
  // resolution as YES each winning token redeems for exactly 1 USDC (1 000 000 raw), so the
  // redeemable value is `out` raw units; the NO holder's tokens are worth 0.
  const seeded: MarketState = openMarket(100_000_000n, 200n);
  const yesBuy = quoteBuy(seeded, 'YES', 10_000_000n);
  const noBuy = quoteBuy(yesBuy.next, 'NO', 5_000_000n);

  it('values winning AMM tokens at 1 USDC each once resolved', () => {
    const resolved = resolveMarket(noBuy.next, 'YES').next;
    const winner = positionFigures(resolved, { yes: yesBuy.outputAmount, no: 0n });
    expect(winner).toEqual({ isResolved: true, hasWinningTokens: true, redeemableRaw: yesBuy.outputAmount, needsRedemption: true });
    const loser = positionFigures(resolved, { yes: 0n, no: noBuy.outputAmount });
    expect(loser).toEqual({ isResolved: true, hasWinningTokens: false, redeemableRaw: 0n, needsRedemption: false });
  });

  it('reports nothing redeemable while the market is active', () => {
    expect(positionFigures(noBuy.next, { yes: yesBuy.outputAmount, no: 0n })).toEqual({
      isResolved: false,
      hasWinningTokens: false,
      redeemableRaw: 0n,
      needsRedemption: false,
    });
  });

  it('splits a Pool pro rata, rounding down, and never counts more than the supply', () => {
    // Pool: 2 tokens per net USDC. Two YES buyers of 10 and 5 USDC and one NO buyer; the winners
    // share the whole pot: floor(collateral × tokens / winning supply).
    const pool = openMarket(0n, 200n);
    const a = quoteBuy(pool, 'YES', 10_000_000n);
    const b = quoteBuy(a.next, 'YES', 5_000_000n);
    const c = quoteBuy(b.next, 'NO', 7_000_000n);
    const resolved = resolveMarket(c.next, 'YES').next;
    const expected = (resolved.collateral * a.outputAmount) / resolved.yesSupply;
    expect(positionFigures(resolved, { yes: a.outputAmount, no: 0n }).redeemableRaw).toBe(expected);
    // An index a moment ahead of the chain must not make the figure throw or exceed the pot.
    expect(positionFigures(resolved, { yes: resolved.yesSupply * 2n, no: 0n }).redeemableRaw).toBe(resolved.collateral);
  });
});

describe('slugFor', () => {
  it('turns the title into words and appends the id', () => {
    expect(slugFor('Will BTC close > 100k?', 7n)).toBe('will-btc-close-100k-7');
    expect(slugFor('Çà et là', 12n)).toBe('ca-et-la-12');
    expect(slugFor('???', 3n)).toBe('market-3');
  });
});
