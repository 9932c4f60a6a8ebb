import { describe, expect, it } from 'vitest';
import { openMarket, parseSide, quoteBuy, quoteTrade, redeemableValue, resolveMarket } from '../../src/amm/index.js';

describe('parseSide', () => {
  const tickers = { yesTicker: 'Up', noTicker: 'DOWN' };
  it('accepts canonical names and tickers, case-insensitively', () => {
    expect(parseSide('yes', tickers)).toBe('YES');
    expect(parseSide('NO', tickers)).toBe('NO');
    expect(parseSide('up', tickers)).toBe('YES');
    expect(parseSide(' Down ', tickers)).toBe('NO');
    expect(parseSide('sideways', tickers)).toBeNull();
    expect(parseSide('', { yesTicker: '', noTicker: '' })).toBeNull();
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
