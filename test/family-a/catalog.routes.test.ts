// GET /v2/markets, /search, /{slug}, /{slug}/details over inject; Family B integer ids; API keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, createHarness, createMarket, type Harness } from './family-a.harness.js';

let h: Harness;
let slug: string;
beforeAll(async () => {
  h = await createHarness();
  slug = (
    await createMarket(h, {
      name: 'Lunar landing in 2030',
      description: 'Will a crewed mission land on the Moon?',
      tags: ['space'],
      category: 'science',
      slug: 'lunar-landing',
    })
  ).slug;
  await createMarket(h, { name: 'Unrelated question', description: 'Nothing here' });
});
afterAll(async () => {
  await h?.close();
});

const get = (url: string, headers: Record<string, string> = {}) => h.t.app.inject({ method: 'GET', url, headers });

describe('Family A catalog routes', () => {
  it('lists with count, limit, offset and hasMore', async () => {
    const res = await get('/v2/markets?limit=1&status=live');
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d).toMatchObject({ count: 2, limit: 1, offset: 0, hasMore: true });
    expect(d.markets[0]).toEqual(expect.objectContaining({ status: 'live', paid: true, resolved: false }));
    expect((await get('/v2/markets?limit=101')).statusCode).toBe(400);
    expect((await get('/v2/markets?status=bogus')).json().error.code).toBe('VALIDATION_ERROR');
  });

  it("answers the list's same bytes while nothing changed, and a market created since at once (page and JSON follow the catalog version)", async () => {
    const first = await get('/v2/markets?limit=50');
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect((await get('/v2/markets?limit=50')).body).toBe(first.body);
    const before = first.json().data;
    const created = await createMarket(h, { name: 'Created after the list was cached', description: 'fresh' });
    const after = (await get('/v2/markets?limit=50')).json().data;
    expect(after.count).toBe(before.count + 1);
    expect(after.markets.map((m: { slug: string }) => m.slug)).toContain(created.slug);
    const found = (await get('/v2/markets/search?q=cached')).json().data;
    expect(found.markets.map((m: { slug: string }) => m.slug)).toEqual([created.slug]);
  });

  it('searches case-insensitively; q is required', async () => {
    const d = (await get('/v2/markets/search?q=LUNAR%20moon')).json().data;
    expect(d.markets.map((m: { slug: string }) => m.slug)).toEqual(['lunar-landing']);
    expect(d).toMatchObject({ count: 1, hasMore: false });
    expect((await get('/v2/markets?q=lunar')).json().data.count).toBe(1);
    expect((await get('/v2/markets/search')).statusCode).toBe(400);
  });

  it('answers one market and its details; unknown slug is 404', async () => {
    const s = (await get(`/v2/markets/${slug}`)).json().data;
    expect(s).toMatchObject({ slug, name: 'Lunar landing in 2030', tags: ['space'], category: 'science', paid: true });
    const d = (await get(`/v2/markets/${slug}/details`)).json().data;
    expect(d).toMatchObject({ slug, options: ['Yes', 'No'], outcome: null, resolvedAt: null, metadata: { target_price: 0.0005 } });
    expect(d.cas.Yes).toBeTruthy();
    expect(d.metadata.option_wallets.Yes).not.toBe(d.metadata.option_wallets.No);
    const missing = await get('/v2/markets/nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ success: false, error: { code: 'MARKET_NOT_FOUND' } });
  });

  it('hands integer ids to Family B (404 in its envelope when Family B is absent)', async () => {
    const res = await get('/v2/markets/42');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, error: 'Market not found' });
  });

  it('non-finite or out-of-range limit/offset answer 400 on /v2/markets and /search (issue 9 item 9), creator must be a wallet', async () => {
    for (const qs of ['limit=Infinity', 'offset=1e400', 'limit=-Infinity', 'offset=NaN', 'limit=1e400', 'offset=Infinity']) {
      for (const path of ['/v2/markets', '/v2/markets/search?q=lunar&']) {
        const url = path.includes('?') ? `${path}${qs}` : `${path}?${qs}`;
        const res = await get(url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json().success, url).toBe(false);
      }
    }
    const bad = await get('/v2/markets?creator=notawallet');
    expect(bad.statusCode).toBe(400); // before: 200 with an empty list
  });

  it('admin endpoints need the admin token', async () => {
    const res = await h.t.app.inject({
      method: 'POST',
      url: '/v2/admin/markets',
      payload: { name: 'abc', description: 'd', endDate: '2030-01-01' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('stays open after an API key is created: enforcement is off by default (the spec: no key required)', async () => {
    const created = (await h.t.app.inject({ method: 'POST', url: '/v2/admin/api-keys', headers: admin, payload: { name: 'open' } })).json()
      .data;
    expect(created.key).toMatch(/^pmx_/);
    expect((await get('/v2/markets')).statusCode).toBe(200); // before the fix: 401 for every client
    expect((await get('/v2/markets', { 'x-api-key': created.key })).statusCode).toBe(200);
    expect((await get('/v2/markets', { 'x-api-key': 'pmx_wrong' })).statusCode).toBe(401); // a key sent is a key checked
    expect((await h.t.app.inject({ method: 'DELETE', url: `/v2/admin/api-keys/${created.id}`, headers: admin })).statusCode).toBe(200);
  });
});

describe('FAMILY_A_REQUIRE_API_KEY=true', () => {
  it('requires a valid X-API-Key on every Family A request, revocation takes effect at once', async () => {
    const hk = await createHarness({ env: { FAMILY_A_REQUIRE_API_KEY: 'true' } });
    try {
      const getK = (url: string, headers: Record<string, string> = {}) => hk.t.app.inject({ method: 'GET', url, headers });
      const denied = await getK('/v2/markets');
      expect(denied.statusCode).toBe(401);
      expect(denied.json().error.code).toBe('UNAUTHORIZED');
      const created = (
        await hk.t.app.inject({ method: 'POST', url: '/v2/admin/api-keys', headers: admin, payload: { name: 'agent' } })
      ).json().data;
      expect((await getK('/v2/markets', { 'x-api-key': 'pmx_wrong' })).statusCode).toBe(401);
      expect((await getK('/v2/markets', { 'x-api-key': created.key })).statusCode).toBe(200);
      const list = (await hk.t.app.inject({ method: 'GET', url: '/v2/admin/api-keys', headers: admin })).json().data;
      expect(JSON.stringify(list)).not.toContain(created.key);
      expect((await hk.t.app.inject({ method: 'DELETE', url: `/v2/admin/api-keys/${created.id}`, headers: admin })).statusCode).toBe(200);
      expect((await getK('/v2/markets', { 'x-api-key': created.key })).statusCode).toBe(401);
      expect((await getK('/v2/markets')).statusCode).toBe(401);
    } finally {
      await hk.close();
    }
  });
});

describe('rate limits per API key', () => {
  it('counts per key, not per IP, when clients send keys', async () => {
    const h2 = await createHarness({ readPerMinute: 3 });
    try {
      const mk = async (name: string) =>
        (await h2.t.app.inject({ method: 'POST', url: '/v2/admin/api-keys', headers: admin, payload: { name } })).json().data.key as string;
      const k1 = await mk('one');
      const k2 = await mk('two');
      const hit = (key: string) => h2.t.app.inject({ method: 'GET', url: '/v2/markets', headers: { 'x-api-key': key } });
      for (let i = 0; i < 3; i++) expect((await hit(k1)).statusCode).toBe(200);
      const limited = await hit(k1);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('RATE_LIMITED');
      expect((await hit(k2)).statusCode).toBe(200); // same IP, other key: its own budget
    } finally {
      await h2.close();
    }
  });
});
