import { describe, expect, it } from 'vitest';
import { ammBuy, ammSell, AmmError } from '../../src/amm/index.js';

describe('fixed-product curve', () => {
  it('buys: reserves 100/100, buy YES with 10 → 19 YES, reserves 91/110', () => {
    // NO reserve 100 + 10 = 110; YES kept = ceil(10_000 / 110) = ceil(90.9) = 91; out = 110 − 91
    const r = ammBuy({ yesReserve: 100n, noReserve: 100n }, 'YES', 10n);
    expect(r.tokensOut).toBe(19n);
    expect(r.next).toEqual({ yesReserve: 91n, noReserve: 110n });
  });

  it('buys the NO side symmetrically', () => {
    const r = ammBuy({ yesReserve: 100n, noReserve: 100n }, 'NO', 10n);
    expect(r.tokensOut).toBe(19n);
    expect(r.next).toEqual({ yesReserve: 110n, noReserve: 91n });
  });

  it('sells: reserves 91/110, sell 19 YES → 9 USDC (9.5 rounded down), reserves 101/101', () => {
    // a = 91 + 19 = 110, b = 110, k = 10_010: r = (220 − ceil(√40_040)) / 2 = (220 − 201) / 2 → 9
    const r = ammSell({ yesReserve: 91n, noReserve: 110n }, 'YES', 19n);
    expect(r.collateralOut).toBe(9n);
    expect(r.next).toEqual({ yesReserve: 101n, noReserve: 101n });
    expect(101n * 101n >= 91n * 110n).toBe(true);
  });

  it('refuses empty reserves and zero amounts', () => {
    expect(() => ammBuy({ yesReserve: 0n, noReserve: 0n }, 'YES', 10n)).toThrow(AmmError);
    expect(() => ammBuy({ yesReserve: 10n, noReserve: 10n }, 'YES', 0n)).toThrow(/nothing/);
    expect(() => ammSell({ yesReserve: 10n, noReserve: 10n }, 'YES', 1n)).toThrow(/no USDC/);
  });
});
