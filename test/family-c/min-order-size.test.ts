/**
 * A market's minimum order size (issue 25, "Dust"): set at creation (default one token), shown
 * in the market's details and in OpenAPI, enforced at placement (below it: 400 INVALID_ORDER,
 * nothing stored), and given to markets created before migration 0012, on both dialects.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as m0012 from '../../db/migrations/0012_clob_min_order_size.js';
import { DIALECTS } from '../helpers/databases.js';
import {
  admin,
  createClobMarket,
  depositedTrader,
  get,
  marketBody,
  openClobHarness,
  place,
  post,
  signedOrder,
  USDC,
  type CHarness,
} from './family-c.harness.js';

let h: CHarness;
beforeAll(async () => {
  h = await openClobHarness();
});
afterAll(async () => h?.close());

const orderCount = async () =>
  Number(
    (
      await h.daemon.db.db
        .selectFrom('clob_orders')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('minOrderSize', () => {
  it('defaults to one token, is set at creation and shown in the market details and OpenAPI', async () => {
    const created = async (body: Record<string, unknown> = {}) =>
      (await createClobMarket(h, body)) as Awaited<ReturnType<typeof createClobMarket>> & { minOrderSize: string };
    const plain = await created();
    expect(plain.minOrderSize).toBe('1000000');
    const small = await created({ minOrderSize: '250000' });
    expect(small.minOrderSize).toBe('250000');
    expect((await get(h, `/v2/clob/markets/${small.id}`)).json().market.minOrderSize).toBe('250000');
    const listed = (await get(h, '/v2/clob/markets?limit=200')).json().markets as Array<{ market: { id: string; minOrderSize: string } }>;
    expect(listed.find((m) => m.market.id === plain.id)?.market.minOrderSize).toBe('1000000');

    const doc = (await get(h, '/openapi.json')).json();
    const create = doc.paths['/v2/admin/clob/markets'].post;
    expect(create.requestBody.content['application/json'].schema.properties.minOrderSize).toMatchObject({ type: 'string' });
    expect(JSON.stringify(doc.paths['/v2/clob/markets/{id}'].get.responses['200'])).toContain('minOrderSize');
  });

  it('refuses a bad minOrderSize at creation with 400, creating nothing', async () => {
    for (const minOrderSize of ['0', '-1', '1.5', 'abc', '', '100000000000001', 1000000]) {
      const res = await admin(h, '/v2/admin/clob/markets', marketBody({ minOrderSize }));
      expect(res.statusCode, String(minOrderSize)).toBe(400);
      expect(Object.keys(res.json()).slice(0, 2)).toEqual(['error', 'message']);
    }
  });

  it('refuses an order below the minimum with 400 INVALID_ORDER and stores nothing; the minimum itself is accepted', async () => {
    const market = await createClobMarket(h, { minOrderSize: String(2n * USDC) });
    const trader = await depositedTrader(h, 10n * USDC);
    const before = await orderCount();
    const below = await post(
      h,
      '/v2/clob/orders',
      signedOrder(trader, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 2n * USDC - 1n }),
    );
    expect(below.statusCode).toBe(400);
    expect(below.json()).toMatchObject({ error: 'INVALID_ORDER' });
    expect(below.json().message).toContain("below this market's minOrderSize of 2000000");
    const dust = await post(
      h,
      '/v2/clob/orders',
      signedOrder(trader, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 1n, timeInForce: 'ioc' }),
    );
    expect(dust.statusCode).toBe(400);
    expect(await orderCount()).toBe(before);
    const atMin = await place(h, trader, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 2n * USDC });
    expect(atMin.status).toBe('open');
  });
});

describe.each(DIALECTS)('migration 0012 on $name', ({ available, open }) => {
  it.skipIf(!available)('gives markets created before it the default minimum of one token', async () => {
    const db = await open();
    try {
      await m0012.down(db.db as never);
      await sql`insert into clob_markets (market_id, market_pubkey, vault, resolution_rules, image_url, slot) values ('old', 'pk', 'v', 'r', '', 0)`.execute(
        db.db,
      );
      await m0012.up(db.db as never);
      const row = await db.db.selectFrom('clob_markets').select('min_order_size').where('market_id', '=', 'old').executeTakeFirstOrThrow();
      expect(row.min_order_size).toBe(1_000_000n);
    } finally {
      await db.close();
    }
  });
});
