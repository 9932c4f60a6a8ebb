import { describe, expect, it } from 'vitest';
import { openMarket, parseOutcomeSide, quoteBuy, quoteTrade, redeemableValue, resolveMarket } from '../../src/amm/index.js';

describe('parseOutcomeSide', () => {
  const tickers = { yesTicker: 'Up', noTicker: 'DOWN' };
  it('accepts canonical names and tickers, case-insensitively', () => {
    expect(parseOutcomeSide('yes', tickers)).toBe('YES');
    expect(parseOutcomeSide('NO', tickers)).toBe('NO');
    expect(parseOutcomeSide('up', tickers)).toBe('YES');
    expect(parseOutcomeSide(' Down ', tickers)).toBe('NO');
    expect(parseOutcomeSide('sideways', tickers)).toBeNull();
    expect(parseOutcomeSide('', { yesTicker: '', noTicker: '' })).toBeNull();
  });
});

describe('quoteTrade and redeemableValue', () => {
  it('dispatches on the action and values positions without throwing', () => {
    const m = openMarket(1_000_000_000n, 200n);
    expect(quoteTrade(m, 'buy', 'YES', 100_000_000n)).toEqual(quoteBuy(m, 'YES', 100_000_000n));
    const a = quoteBuy(m, 'YES', 10_000_000n);
    const b = quoteBuy(a.next, 'NO', 10_000_000n);
    expect(redeemableValue(b.next, 'YES', a.outputAmount)).toBe(0n); // still active
    const resolved = resolveMarket(b.next, 'YES').next;
    expect(redeemableValue(resolved, 'YES', a.outputAmount)).toBe(a.outputAmount);
    expect(redeemableValue(resolved, 'NO', b.outputAmount)).toBe(0n);
  });
});
