/**
 * Slugs derived from a market's name never look like a number: a Family A or Family C market named
 * "2026" would otherwise take the slug `2026`, which /v2/markets/2026 serves as Family B's market
 * 2026, and "1e10" a slug that path reads as a malformed id. The full daemon (all three families).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN } from '../helpers/app.js';
import { get, openHarness, type BHarness } from './family-b.harness.js';

let h: BHarness;
beforeAll(async () => {
  h = await openHarness({ ADMIN_TOKEN: TEST_ADMIN_TOKEN });
});
afterAll(async () => h?.close());

const admin = (url: string, payload: Record<string, unknown>) =>
  h.app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
const endDate = () => new Date(Date.now() + 86_400_000).toISOString();

describe('slugs derived from number-like names', () => {
  it('Family A admin creation prefixes them, and the market is read by its slug', async () => {
    for (const [name, slug] of [
      ['2026', 'market-2026'],
      ['1e10', 'market-1e10'],
    ]) {
      const res = await admin('/v2/admin/markets', { name, description: 'A number-like name', endDate: endDate() });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.slug).toBe(slug);
      const read = await get(h, `/v2/markets/${slug}`);
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json().data.slug).toBe(slug);
    }
    // The integer path still belongs to Family B.
    expect((await get(h, '/v2/markets/2026')).json()).toMatchObject({ success: false, code: 'MARKET_NOT_FOUND' });
  });

  it('Family C admin creation prefixes them, and the market is read by its slug', async () => {
    for (const [title, slug] of [
      ['2026', 'market-2026-2'],
      ['1e10', 'market-1e10-2'],
    ]) {
      const res = await admin('/v2/admin/clob/markets', {
        title,
        description: 'A number-like title',
        resolutionRules: 'YES if it happens.',
        category: 'misc',
        endDate: endDate(),
        yesTicker: 'YES',
        noTicker: 'NO',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().market.marketId).toBe(slug);
      expect((await get(h, `/v2/clob/markets/${slug}`)).statusCode).toBe(200);
    }
  });

  it('refuses a number-like explicit slug (400) in each family', async () => {
    const a = await admin('/v2/admin/markets', { name: 'Explicit', description: 'd', endDate: endDate(), slug: '1e10' });
    expect(a.statusCode).toBe(400);
    const c = await admin('/v2/admin/clob/markets', {
      title: 'Explicit',
      description: 'd',
      resolutionRules: 'r',
      category: 'misc',
      endDate: endDate(),
      yesTicker: 'YES',
      noTicker: 'NO',
      slug: '0x1f',
    });
    expect(c.statusCode).toBe(400);
    expect(c.json()).toMatchObject({ error: 'VALIDATION_ERROR' });
  });
});
