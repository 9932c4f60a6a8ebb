/**
 * Keyset pagination of the Family A list and search (issue 15 item 4), on both dialects: following
 * `nextCursor` visits exactly the markets the offset pages show, in the same order (ties in
 * created_at broken by id), unaffected by a market created between pages; a cursor that is not
 * ours, or combined with an offset, is a 400 in Family A's envelope.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, openSqlite, type DatabaseHandle } from '../../db/database.js';
import { insertMarket } from '../../db/repositories/family-a-markets.repository.js';
import { marketRoutes } from '../../src/api/routes/family-a/markets.routes.js';
import type { FamilyADeps } from '../../src/services/family-a/family-a.deps.js';
import { listCatalog, type ListQuery } from '../../src/services/family-a/market-catalog.service.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { DIALECTS, sqliteDatabase } from '../helpers/databases.js';

const N = 57;

async function seed(db: DatabaseHandle): Promise<void> {
  const t0 = Date.parse('2026-02-01T00:00:00Z');
  for (let i = 0; i < N; i++) {
    // Three markets share each creation second: the order falls back to the id.
    const created = new Date(t0 + Math.floor(i / 3) * 1000).toISOString();
    await insertMarket(db.db, {
      id: randomUUID(),
      slug: `cursor-${i}`,
      kind: 'x402',
      name: `Orbit ${i % 2 ? 'mars' : 'venus'} mission ${i}`,
      description: 'space race',
      category: '',
      tags: '[]',
      image_urls: '[]',
      status: i % 4 === 0 ? 'resolved' : 'live',
      yes_ticker: 'YES',
      no_ticker: 'NO',
      published: 1,
      created_at: created,
      updated_at: created,
    });
  }
}

type Page = Awaited<ReturnType<typeof listCatalog>>;

for (const { name, available, open } of DIALECTS)
  describe.skipIf(!available)(`catalog cursors on ${name}`, () => {
    let db: DatabaseHandle;
    let deps: FamilyADeps;
    beforeAll(async () => {
      db = await open();
      await seed(db);
      deps = { db: db.db, dialect: db.dialect } as FamilyADeps; // the catalog reads need nothing else
    });
    afterAll(async () => {
      await db?.close();
    });

    async function byOffset(q: Partial<ListQuery>): Promise<string[]> {
      return (await listCatalog(deps, { limit: 100, offset: 0, ...q })).markets.map((m) => m.slug);
    }

    async function byCursor(q: Partial<ListQuery>, limit: number): Promise<{ slugs: string[]; pages: Page[] }> {
      const pages: Page[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await listCatalog(deps, { limit, offset: 0, ...q, cursor });
        pages.push(page);
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      return { slugs: pages.flatMap((p) => p.markets.map((m) => m.slug)), pages };
    }

    for (const [label, q] of [
      ['the whole list', {}],
      ['a status filter', { status: 'live' }],
      ['a search', { q: 'orbit mars' }],
    ] as const) {
      it(`${label}: cursor pages = offset pages, none twice, none missed`, async () => {
        const all = await byOffset(q);
        expect(all.length).toBeGreaterThan(10);
        const { slugs, pages } = await byCursor(q, 7);
        expect(slugs).toEqual(all);
        expect(new Set(slugs).size).toBe(slugs.length);
        expect(pages.slice(0, -1).every((p) => p.hasMore && p.markets.length === 7)).toBe(true);
        expect(pages.at(-1)).toMatchObject({ hasMore: false, nextCursor: null });
      });
    }

    it('serves a page again while the catalog is unchanged, and afresh after a write from any connection', async () => {
      const first = await listCatalog(deps, { limit: 5, offset: 0, status: 'resolved' });
      expect(await listCatalog(deps, { limit: 5, offset: 0, status: 'resolved' })).toBe(first); // kept
      // Another connection (another process would be the same): resolve a market through it.
      const other = db.dialect === 'sqlite' ? openSqlite(db.location) : openPostgres(db.location, 1);
      try {
        const live = (await listCatalog(deps, { limit: 1, offset: 0, status: 'live' })).markets[0]!;
        await other.db.updateTable('markets').set({ status: 'resolved' }).where('slug', '=', live.slug).execute();
        const after = await listCatalog(deps, { limit: 5, offset: 0, status: 'resolved' });
        expect(after).not.toBe(first);
        expect(after.count).toBe(first.count + 1);
        // A write to family_a_markets moves the version too (its columns are part of a page's rows).
        const again = await listCatalog(deps, { limit: 5, offset: 0, status: 'resolved' });
        expect(again).toBe(after);
        const id = (await other.db.selectFrom('markets').select('id').where('slug', '=', live.slug).executeTakeFirstOrThrow()).id;
        await other.db
          .insertInto('family_a_markets')
          .values({
            market_id: id,
            target_price_raw: 500n,
            market_limit: 100n,
            yes_wallet: 'y',
            no_wallet: 'n',
            creation_fee_usdc_raw: 0n,
            creation_fee_lamports: 0n,
          })
          .execute();
        expect(await listCatalog(deps, { limit: 5, offset: 0, status: 'resolved' })).not.toBe(after);
      } finally {
        await other.close();
      }
    });

    it('a market created between pages does not shift the next page', async () => {
      const first = await listCatalog(deps, { limit: 10, offset: 0 });
      const now = new Date(Date.parse('2027-01-01T00:00:00Z')).toISOString();
      await insertMarket(db.db, {
        id: randomUUID(),
        slug: 'cursor-newest',
        kind: 'x402',
        name: 'Newest',
        description: '',
        category: '',
        tags: '[]',
        image_urls: '[]',
        status: 'live',
        yes_ticker: 'YES',
        no_ticker: 'NO',
        published: 1,
        created_at: now,
        updated_at: now,
      });
      const second = await listCatalog(deps, { limit: 10, offset: 0, cursor: first.nextCursor! });
      const all = await byOffset({});
      expect(second.markets.map((m) => m.slug)).toEqual(all.slice(11, 21)); // the new one is first now
    });
  });

describe('cursor errors over HTTP (SQLite)', () => {
  let t: TestApp;
  let db: DatabaseHandle;
  beforeAll(async () => {
    db = await sqliteDatabase();
    await seed(db);
    t = await createTestApp({ db, routes: [marketRoutes({ db: db.db, dialect: db.dialect } as FamilyADeps)] });
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('refuses a cursor that is not ours, or one of the other ordering, or with an offset: 400 in the Family A envelope', async () => {
    const page = (await get('/v2/markets?limit=5')).json().data;
    expect(page.nextCursor).toEqual(expect.any(String));
    const searchCursor = (await get('/v2/markets/search?q=orbit&limit=5')).json().data.nextCursor as string;
    for (const url of [
      '/v2/markets?cursor=not-a-cursor',
      '/v2/markets?cursor=%7B%7D',
      `/v2/markets?cursor=${Buffer.from('["t",1,2]').toString('base64url')}`,
      `/v2/markets?cursor=${page.nextCursor}&offset=5`,
      `/v2/markets/search?q=orbit&cursor=${page.nextCursor}`,
      `/v2/markets?cursor=${searchCursor}`,
      `/v2/markets?cursor=${'A'.repeat(201)}`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({
        success: false,
        error: { code: expect.stringMatching(/^(INVALID_CURSOR|VALIDATION_ERROR)$/) },
      });
    }
    const next = await get(`/v2/markets?limit=5&cursor=${page.nextCursor}`);
    expect(next.statusCode).toBe(200);
    expect(next.json().data.markets).toHaveLength(5);
  });
});
