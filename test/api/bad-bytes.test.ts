/**
 * Text that cannot be stored (a NUL byte, a lone UTF-16 surrogate) is refused with 400 in the
 * family's envelope on every route, before it reaches a database: PostgreSQL refuses NUL in
 * text (it answered 500 on each request below), SQLite would store it and compare it wrongly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClobMarket, openClobHarness, type CHarness } from '../family-c/family-c.harness.js';
import { familyOf } from '../../src/api/families.js';
import { marketResolver } from '../../src/api/ws/market-resolver.js';
import { PG_AVAILABLE, postgresDatabase, postgresSchema } from '../helpers/databases.js';

const WALLET = 'So11111111111111111111111111111111111111112';

function reproductions(marketId: string): Array<{ method: 'GET' | 'POST'; url: string; payload?: Record<string, unknown> }> {
  return [
    { method: 'GET', url: '/v2/clob/markets/%00' },
    { method: 'GET', url: '/v2/clob/markets/a%00b/orderbook' },
    { method: 'GET', url: '/v2/clob/markets/a%00b/trades' },
    { method: 'GET', url: `/v2/clob/positions?pubkey=${WALLET}&marketId=%00` },
    { method: 'GET', url: `/v2/clob/orders?pubkey=${WALLET}&marketId=%00` },
    { method: 'GET', url: `/v2/clob/fills?pubkey=${WALLET}&marketId=%00` },
    { method: 'GET', url: '/v2/clob/markets?category=%00' },
    { method: 'GET', url: '/v2/markets/%00' },
    { method: 'GET', url: '/v2/markets/a%00b' },
    { method: 'GET', url: '/v2/markets/1%00' },
    { method: 'POST', url: '/v2/clob/account/split', payload: { pubkey: WALLET, marketId: 'a\u0000b', amount: '1000000' } },
    // a lone surrogate in a path (refused by the router) and in a JSON body; a NUL in a body's key
    // (a query string's broken UTF-8 is decoded to U+FFFD by the parser, storable)
    { method: 'GET', url: `/v2/clob/markets/${encodeURIComponent(marketId)}${'%ED%A0%80'}` },
    { method: 'POST', url: '/v2/clob/account/split', payload: { pubkey: WALLET, marketId: `${marketId}\ud800`, amount: '1000000' } },
    { method: 'POST', url: '/v2/clob/account/split', payload: { pubkey: WALLET, marketId, amount: '1000000', ['\u0000']: 1 } },
    // deep in arrays and objects, past storable strings (and a pair of surrogates, which is storable)
    {
      method: 'POST',
      url: '/v2/clob/account/split',
      payload: { pubkey: WALLET, marketId, amount: '1000000', extra: ['😀', { deep: ['x', 'y\u0000'] }] },
    },
    {
      method: 'POST',
      url: '/v2/clob/account/split',
      payload: { pubkey: WALLET, marketId, amount: '1000000', extra: [{ ['k\udc00']: 'v' }] },
    },
  ];
}

for (const dialect of ['sqlite', 'postgres'] as const) {
  describe.skipIf(dialect === 'postgres' && !PG_AVAILABLE)(`bad bytes on ${dialect}`, () => {
    let h: CHarness;
    let drop: (() => Promise<void>) | undefined;
    let marketId: string;

    beforeAll(async () => {
      const env: Record<string, string> = {};
      if (dialect === 'postgres') {
        const schema = await postgresSchema();
        drop = schema.drop;
        env.DATABASE_URL = schema.url;
      }
      h = await openClobHarness(env);
      marketId = (await createClobMarket(h)).id;
    }, 60_000);
    afterAll(async () => {
      await h?.close();
      await drop?.();
    });

    it('refuses NUL bytes and lone surrogates with 400 in the family envelope', async () => {
      for (const { method, url, payload } of reproductions(marketId)) {
        const res = await h.app.inject({
          method,
          url,
          ...(payload ? { payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } } : {}),
        });
        const shown = `${method} ${url} ${JSON.stringify(payload) ?? ''} → ${res.statusCode} ${res.body}`;
        expect(res.statusCode, shown).toBe(400);
        const body = res.json();
        const envelope = {
          A: { success: false, error: { code: 'VALIDATION_ERROR' } },
          B: { success: false, code: 'VALIDATION_ERROR' },
          C: { error: 'VALIDATION_ERROR' },
        };
        expect(body, shown).toMatchObject(envelope[familyOf(url)]);
        expect(JSON.stringify(body), shown).toMatch(/NUL|surrogate/);
      }
    });

    it('still serves the same routes with ordinary text (the guard refuses only what cannot be stored)', async () => {
      const market = await h.app.inject({ method: 'GET', url: `/v2/clob/markets/${marketId}` });
      expect(market.statusCode).toBe(200);
      const emoji = await h.app.inject({ method: 'GET', url: `/v2/clob/markets?category=${encodeURIComponent('weather ☔ 😀')}` });
      expect(emoji.statusCode).toBe(200);
    });
  });
}

describe.skipIf(!PG_AVAILABLE)('bad bytes in a WebSocket subscription on postgres', () => {
  it('resolves a market reference with a NUL byte or a lone surrogate to no market, without a failing query', async () => {
    const pg = await postgresDatabase();
    try {
      const resolve = marketResolver({ db: pg.db });
      expect(await resolve(['a\u0000b', '\ud800', 'no-such-market'])).toEqual([null, null, null]);
    } finally {
      await pg.close();
    }
  });
});
