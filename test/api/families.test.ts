import { describe, expect, it } from 'vitest';
import { errorEnvelope } from '../../src/api/envelopes.js';
import { familyOf, type Family } from '../../src/api/families.js';

const CASES: Array<[string, Family]> = [
  ['/v2/clob/orders', 'C'],
  ['/v2/clob/x', 'C'],
  ['/v2/ws', 'C'],
  ['/v2/markets/12', 'B'],
  ['/v2/markets/12/x', 'B'],
  ['/v2/markets/12/buy?wallet=abc', 'B'],
  ['/v2/markets/create', 'B'],
  ['/v2/markets/confirm', 'B'],
  ['/v2/positions/abc', 'B'],
  ['/v2/config', 'B'],
  ['/v2/redeem-all', 'B'],
  ['/v2/claim-all-fees', 'B'],
  ['/v2/dev/airdrop', 'B'],
  ['/v2/markets/some-slug/x', 'A'],
  ['/v2/markets/will-it-rain/trade/buy', 'A'],
  ['/v2/markets/12abc', 'A'],
  ['/v2/markets', 'A'],
  ['/v2/markets?limit=5', 'A'],
  ['/v2/markets/search?q=12', 'A'],
  ['/v2/admin/markets', 'A'],
  ['/health', 'A'],
  ['/admin/queues', 'A'],
  ['/', 'A'],
  ['', 'A'],
];

describe('familyOf', () => {
  it.each(CASES)('%s belongs to family %s', (url, family) => {
    expect(familyOf(url)).toBe(family);
  });

  it('ignores the query string when classifying', () => {
    expect(familyOf('/v2/markets/slug?x=/v2/clob/')).toBe('A');
    expect(familyOf('/health?next=/v2/markets/12')).toBe('A');
  });

  it('reads percent-encoded segments as the router does (decoded), keeping a malformed escape as sent', () => {
    expect(familyOf('/v2/%61dmin/nodes')).toBe('A');
    expect(familyOf('/v2/%63lob/orders')).toBe('C');
    expect(familyOf('/v2/markets/%31%32')).toBe('B');
    expect(familyOf('/v2/%6Darkets/some-slug')).toBe('A');
    expect(familyOf('/v2/%ZZ/x')).toBe('B');
  });
});

describe('errorEnvelope', () => {
  const body = { code: 'MARKET_CLOSED', message: 'The market is closed', extra: { marketStatus: 'closed' } };

  it('shapes each family as the spec says, keeping extra fields', () => {
    expect(errorEnvelope('A', body)).toEqual({
      success: false,
      error: { code: 'MARKET_CLOSED', message: 'The market is closed' },
      marketStatus: 'closed',
    });
    expect(errorEnvelope('B', body)).toEqual({
      success: false,
      error: 'The market is closed',
      code: 'MARKET_CLOSED',
      marketStatus: 'closed',
    });
    expect(errorEnvelope('C', body)).toEqual({ error: 'MARKET_CLOSED', message: 'The market is closed', marketStatus: 'closed' });
  });
});
