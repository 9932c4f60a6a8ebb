import { describe, expect, it } from 'vitest';
import { checkExpiry, EXPIRY_MARGIN_SEC, MAX_GTC_LIFETIME_SEC } from '../../../src/domain/orderbook/index.js';

const now = 1_700_000_000;
const code = (f: () => void): string | undefined => {
  try {
    f();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe('checkExpiry', () => {
  it('accepts an expiry between the margin and 30 days, for every time in force', () => {
    for (const tif of ['gtc', 'ioc', 'fok'] as const) {
      expect(code(() => checkExpiry(BigInt(now + EXPIRY_MARGIN_SEC + 1), now, tif))).toBeUndefined();
      expect(code(() => checkExpiry(BigInt(now + MAX_GTC_LIFETIME_SEC), now, tif))).toBeUndefined();
    }
  });

  it('refuses an expiry within the margin as ORDER_EXPIRED', () => {
    expect(code(() => checkExpiry(BigInt(now + EXPIRY_MARGIN_SEC), now, 'ioc'))).toBe('ORDER_EXPIRED');
    expect(code(() => checkExpiry(-(1n << 63n), now, 'fok'))).toBe('ORDER_EXPIRED');
  });

  // An ioc/fok/market order with the largest i64 expiry used to pass, become 2^63 as a number and
  // overflow the matcher's 64-bit column, failing every order of its batch.
  it('refuses an expiry beyond 30 days for ioc and fok as well as gtc', () => {
    for (const tif of ['gtc', 'ioc', 'fok'] as const) {
      expect(code(() => checkExpiry(BigInt(now + MAX_GTC_LIFETIME_SEC + 1), now, tif))).toBe('INVALID_ORDER');
      expect(code(() => checkExpiry((1n << 63n) - 1n, now, tif))).toBe('INVALID_ORDER');
    }
  });
});
