import { describe, expect, it } from 'vitest';
import {
  checkExpiry,
  checkNotExpiring,
  checkPrice,
  effectiveTimeInForce,
  EXPIRY_MARGIN_SEC,
  MAX_GTC_LIFETIME_SEC,
} from '../../../src/domain/orderbook/index.js';

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

describe('checkNotExpiring (intake and matcher)', () => {
  it('refuses the margin itself and accepts one second more, as a number or a bigint', () => {
    expect(code(() => checkNotExpiring(now + EXPIRY_MARGIN_SEC, now))).toBe('ORDER_EXPIRED');
    expect(code(() => checkNotExpiring(BigInt(now + EXPIRY_MARGIN_SEC + 1), now))).toBeUndefined();
  });
});

describe('effectiveTimeInForce', () => {
  it('makes a market order ioc unless asked fok, and a limit order gtc unless asked otherwise', () => {
    expect(effectiveTimeInForce('market', undefined, false)).toBe('ioc');
    expect(effectiveTimeInForce('market', 'fok', false)).toBe('fok');
    expect(effectiveTimeInForce('limit', undefined, true)).toBe('gtc');
    expect(effectiveTimeInForce('limit', 'ioc', false)).toBe('ioc');
  });

  it('refuses a gtc market order and a postOnly order that is not a gtc limit', () => {
    expect(code(() => effectiveTimeInForce('market', 'gtc', false))).toBe('INVALID_ORDER');
    expect(code(() => effectiveTimeInForce('market', 'ioc', true))).toBe('INVALID_ORDER');
    expect(code(() => effectiveTimeInForce('limit', 'fok', true))).toBe('INVALID_ORDER');
  });
});

describe('checkPrice', () => {
  it("allows 10000 bps only as a market order's worst price", () => {
    expect(code(() => checkPrice(9_999, 'limit'))).toBeUndefined();
    expect(code(() => checkPrice(10_000, 'limit'))).toBe('INVALID_ORDER');
    expect(code(() => checkPrice(10_000, 'market'))).toBeUndefined();
    expect(code(() => checkPrice(0, 'market'))).toBe('INVALID_ORDER');
    expect(code(() => checkPrice(1.5, 'limit'))).toBe('INVALID_ORDER');
  });
});
