import { describe, expect, it } from 'vitest';
import { PmxApiError, readErrorBody } from '../src/index.js';

describe('error envelopes', () => {
  it("reads each family's envelope into one code and message", () => {
    expect(readErrorBody({ success: false, error: { code: 'MARKET_NOT_FOUND', message: 'no such market' } })).toEqual({
      family: 'A',
      code: 'MARKET_NOT_FOUND',
      message: 'no such market',
    });
    expect(readErrorBody({ success: false, error: 'Market 9 not found', code: 'MARKET_NOT_FOUND' })).toEqual({
      family: 'B',
      code: 'MARKET_NOT_FOUND',
      message: 'Market 9 not found',
    });
    expect(readErrorBody({ error: 'INSUFFICIENT_BALANCE', message: 'short', available: '1', required: '2' })).toEqual({
      family: 'C',
      code: 'INSUFFICIENT_BALANCE',
      message: 'short',
    });
    expect(readErrorBody('Bad Gateway')).toEqual({ family: undefined, code: 'UNKNOWN', message: 'Bad Gateway' });
  });

  it('PmxApiError keeps the whole envelope, extra fields included', () => {
    const e = new PmxApiError(400, { error: 'INSUFFICIENT_BALANCE', message: 'short', available: '1' }, '/v2/clob/orders');
    expect(e).toMatchObject({ status: 400, family: 'C', code: 'INSUFFICIENT_BALANCE', body: { available: '1' } });
    expect(e.message).toBe('/v2/clob/orders: 400 INSUFFICIENT_BALANCE: short');
  });
});
