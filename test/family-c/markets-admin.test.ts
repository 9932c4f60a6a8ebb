/**
 * Orderbook markets through the operator routes and the public reads: creation on chain, the
 * idempotent status changes and their refusals, filters and keyset pages, and bad input answered
 * in the Family C envelope without creating anything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN } from '../helpers/app.js';
import { admin, createClobMarket, get, marketBody, openClobHarness, post, type CHarness } from './family-c.harness.js';

let h: CHarness;
beforeAll(async () => {
  h = await openClobHarness();
});
afterAll(async () => h?.close());

const count = async () =>
  Number(
    (
      await h.daemon.db.db
        .selectFrom('markets')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('kind', '=', 'clob')
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('orderbook markets', () => {
  it('creates a market on chain and shows it by UUID and by slug, with null prices before any order', async () => {
    const market = await createClobMarket(h, { slug: 'rain-lisbon-test', imageUrl: 'https://example.com/rain.png' });
    expect(market).toMatchObject({
      marketId: 'rain-lisbon-test',
      status: 'active',
      outcome: null,
      yesTicker: 'RAIN',
      noTicker: 'DRY',
      imageUrl: 'https://example.com/rain.png',
    });
    const account = await h.daemon.chain.client.getAccount(market.marketPubkey);
    expect(account?.owner).toBe(h.daemon.chain.programs.exchange!.toBase58());
    for (const ref of [market.id, 'rain-lisbon-test']) {
      const res = await get(h, `/v2/clob/markets/${ref}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        market: { id: market.id },
        bestBid: { yes: null, no: null },
        bestAsk: { yes: null, no: null },
        lastPrice: { yes: null, no: null },
      });
    }
    // The shared catalog: Family A's reads see the market too, and never fail on it.
    for (const url of ['/v2/markets/rain-lisbon-test', '/v2/markets/rain-lisbon-test/details', '/v2/markets?limit=100']) {
      const res = await get(h, url);
      expect(res.statusCode).toBeLessThan(500);
    }
  });

  it('pauses, resumes and resolves idempotently and refuses what the state forbids', async () => {
    const m = await createClobMarket(h);
    const act = async (action: string, body: unknown = {}) => admin(h, `/v2/admin/clob/markets/${m.id}/${action}`, body);
    expect((await act('pause')).json().market.status).toBe('paused');
    expect((await act('pause')).json().market.status).toBe('paused');
    const split = await post(h, '/v2/clob/account/split', { pubkey: m.marketPubkey, marketId: m.id, amount: '1' });
    expect(split.statusCode).toBe(400);
    expect(split.json().error).toBe('MARKET_NOT_ACTIVE');
    expect((await act('resume')).json().market.status).toBe('active');
    expect((await act('resume')).json().market.status).toBe('active');
    expect((await act('resolve', { outcome: 'no' })).json().market).toMatchObject({ status: 'resolved', outcome: 'no' });
    expect((await act('resolve', { outcome: 'no' })).statusCode).toBe(200);
    const other = await act('resolve', { outcome: 'yes' });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ error: 'ALREADY_RESOLVED' });
    const pause = await act('pause');
    expect(pause.statusCode).toBe(409);
    expect(pause.json()).toMatchObject({ error: 'INVALID_STATUS_TRANSITION', marketStatus: 'resolved' });
  });

  it('lists newest first with status and category filters and a cursor that walks every page once', async () => {
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createClobMarket(h, { category: 'paging', title: `Paging market number ${i}` }));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(h, `/v2/clob/markets?category=paging&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      seen.push(...body.markets.map((m: { market: { id: string } }) => m.market.id));
      cursor = body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(made.map((m) => m.id).reverse());
    const resolved = (await get(h, '/v2/clob/markets?status=resolved')).json();
    expect(resolved.markets.every((m: { market: { status: string } }) => m.market.status === 'resolved')).toBe(true);
  });

  it('answers bad input in the Family C envelope and creates nothing', async () => {
    const before = await count();
    const cases: Array<[unknown, string?]> = [
      [marketBody({ endDate: '2001-01-01T00:00:00Z' })],
      [marketBody({ endDate: 'tomorrow' })],
      [marketBody({ yesTicker: 'NO', noTicker: 'YES' })],
      [marketBody({ yesTicker: 'same', noTicker: 'SAME' })],
      [marketBody({ imageUrl: 'javascript:alert(1)' })],
      [marketBody({ slug: '12345' })],
      [marketBody({ title: 5 })],
      [marketBody({ title: undefined })],
      [[]],
      [null],
    ];
    for (const [body] of cases) {
      const res = await admin(h, '/v2/admin/clob/markets', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json()).slice(0, 2)).toEqual(['error', 'message']);
    }
    const taken = await admin(h, '/v2/admin/clob/markets', marketBody({ slug: 'rain-lisbon-test' }));
    expect(taken.statusCode).toBe(409);
    const anonymous = await post(h, '/v2/admin/clob/markets', marketBody());
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error).toBe('UNAUTHORIZED');
    expect(await count()).toBe(before);
  });

  it('answers unknown markets, bad cursors and bad pubkeys with 4xx, and approve with 410', async () => {
    expect((await get(h, '/v2/clob/markets/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await get(h, '/v2/clob/markets/no-such-market')).json()).toMatchObject({ error: 'MARKET_NOT_FOUND' });
    expect((await get(h, '/v2/clob/markets?cursor=bm9wZQ')).json()).toMatchObject({ error: 'INVALID_CURSOR' });
    expect((await get(h, '/v2/clob/markets?limit=201')).statusCode).toBe(400);
    expect((await get(h, '/v2/clob/account/setup?pubkey=notakey')).statusCode).toBe(400);
    expect((await get(h, '/v2/clob/account/balances')).statusCode).toBe(400);
    const approve = await post(h, '/v2/clob/account/approve', {});
    expect(approve.statusCode).toBe(410);
    expect(approve.json().message).toContain('deposit');
  });

  it('declares the answer of every operator route in OpenAPI, the keeper status included', async () => {
    type Operation = { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> };
    const doc = (await get(h, '/openapi.json')).json() as { paths: Record<string, Record<string, Operation>> };
    const admins = Object.entries(doc.paths).filter(([path]) => path.startsWith('/v2/admin/clob/'));
    expect(admins.map(([path]) => path)).toContain('/v2/admin/clob/keeper');
    for (const [path, ops] of admins) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.responses?.['200']?.content?.['application/json']?.schema, `${method} ${path}`).toBeDefined();
      }
    }
    const keeper = doc.paths['/v2/admin/clob/keeper']!.get!.responses!['200']!.content!['application/json']!.schema as {
      properties?: Record<string, unknown>;
    };
    expect(Object.keys(keeper.properties ?? {})).toEqual(['fillsByStatus', 'oldestUnsettledAgeSeconds', 'failedFills']);
    const status = await h.app.inject({
      method: 'GET',
      url: '/v2/admin/clob/keeper',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({ fillsByStatus: expect.any(Object), failedFills: expect.any(Array) });
  });

  it('refuses malformed amounts and pubkeys on every write without building anything', async () => {
    const m = await createClobMarket(h);
    const pubkey = m.marketPubkey;
    const bad: Array<Record<string, unknown>> = [
      { pubkey, amount: '0' },
      { pubkey, amount: '-1' },
      { pubkey, amount: '1.5' },
      { pubkey, amount: 1000 },
      { pubkey, amount: '18446744073709551616' },
      { pubkey, amount: ['1'] },
      { pubkey: 'x', amount: '1' },
      { amount: '1' },
      { pubkey: '11111111111111111111111111111111111111111111', amount: '1' },
    ];
    for (const path of ['deposit', 'withdraw']) {
      for (const body of bad) {
        const res = await post(h, `/v2/clob/account/${path}`, body);
        expect(res.statusCode, `${path} ${JSON.stringify(body)} → ${res.body}`).toBe(400);
        expect(typeof res.json().error).toBe('string');
      }
    }
    for (const path of ['split', 'merge', 'redeem']) {
      for (const body of [...bad.map((b) => ({ ...b, marketId: m.id })), { pubkey, amount: '1', marketId: 'nope' }]) {
        const res = await post(h, `/v2/clob/account/${path}`, body);
        expect(res.statusCode, `${path} ${JSON.stringify(body)} → ${res.body}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode).toBeLessThan(500);
      }
    }
    const poor = await post(h, '/v2/clob/account/deposit', { pubkey, amount: '1' });
    expect(poor.json()).toMatchObject({ error: 'INSUFFICIENT_BALANCE', balance: '0', required: '1' });
  });
});
