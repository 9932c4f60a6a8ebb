/**
 * GET /v2/markets/{slug}, /v2/markets and /v2/markets/search keep their answers' bytes while no
 * connection commits (issue 31, market-catalog.service.ts keptAnswer). A kept answer is
 * byte-identical to a fresh one (made here by the services directly, nothing kept), and a commit
 * by the main connection, by another connection to the file or by another process is seen by the
 * very next read. A slug that is not found is never kept.
 */
import { execFileSync } from 'node:child_process';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConnectionOf } from '../../db/read-connection.js';
import { listCatalog, marketSummary } from '../../src/services/family-a/market-catalog.service.js';
import { sqliteDatabase } from '../helpers/databases.js';
import { createHarness, createMarket, familyADeps, type Harness } from './family-a.harness.js';

let h: Harness;
let db: Awaited<ReturnType<typeof sqliteDatabase>>;
beforeAll(async () => {
  db = await sqliteDatabase();
  h = await createHarness({ db });
});
afterAll(async () => {
  await h?.close();
  await db?.close();
});

const get = (url: string) => h.t.app.inject({ method: 'GET', url });
/** What the route answers when nothing is kept: its envelope's JSON (the schema's data is unknown). */
const fresh = (data: unknown) => JSON.stringify({ success: true, data });
const freshSummary = async (slug: string) => fresh(await marketSummary(familyADeps(h), slug));
const freshList = async (limit: number) => fresh(await listCatalog(familyADeps(h), { limit, offset: 0 }));

/** A write as another process makes it: its own connection, its own commit. */
function commitFromAnotherProcess(statement: string): void {
  const script = `const D=require('better-sqlite3');const d=new D(process.argv[1]);d.prepare(process.argv[2]).run();d.close()`;
  execFileSync(process.execPath, ['-e', script, db.location, statement]);
}

describe('kept Family A answers', () => {
  it('run on the read-only connection (the path under test)', () => {
    expect(readConnectionOf(h.ctx.db)).toBeDefined();
  });

  it('a repeat slug read sends the same bytes and headers as a fresh answer', async () => {
    const { slug } = await createMarket(h, { name: 'Kept slug answer', tags: ['ünïcode ✓'] });
    const first = await get(`/v2/markets/${slug}`);
    const again = await get(`/v2/markets/${slug}`);
    expect(first.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(first.body).toBe(await freshSummary(slug));
    for (const name of ['content-type', 'content-length', 'x-ratelimit-limit']) expect(again.headers[name]).toEqual(first.headers[name]);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(first.headers['content-length'])).toBe(Buffer.byteLength(first.body));
  });

  it('a commit by the main connection, another connection or another process is seen by the next slug read', async () => {
    const { slug } = await createMarket(h, { name: 'Before any commit' });
    await get(`/v2/markets/${slug}`);
    await get(`/v2/markets/${slug}`); // kept now
    await h.ctx.db.updateTable('markets').set({ name: 'Main connection' }).where('slug', '=', slug).execute();
    let res = await get(`/v2/markets/${slug}`);
    expect(res.json().data.name).toBe('Main connection');
    expect(res.body).toBe(await freshSummary(slug));

    const other = new SQLite(db.location);
    try {
      other.prepare(`update markets set category = 'other-connection' where slug = ?`).run(slug);
    } finally {
      other.close();
    }
    res = await get(`/v2/markets/${slug}`);
    expect(res.json().data.category).toBe('other-connection');
    expect(res.body).toBe(await freshSummary(slug));

    commitFromAnotherProcess(`update markets set status = 'resolved' where slug = '${slug}'`);
    res = await get(`/v2/markets/${slug}`);
    expect(res.json().data).toMatchObject({ status: 'resolved', resolved: true });
    expect(res.body).toBe(await freshSummary(slug));
  });

  it('a commit to a table the summary does not read still drops the kept answer, and the next one is exact', async () => {
    const { slug } = await createMarket(h, { name: 'Unrelated commit' });
    const before = (await get(`/v2/markets/${slug}`)).body;
    commitFromAnotherProcess(`create table if not exists kept_answers_noise (x integer)`);
    expect((await get(`/v2/markets/${slug}`)).body).toBe(before);
    commitFromAnotherProcess(`insert into kept_answers_noise values (1)`);
    expect((await get(`/v2/markets/${slug}`)).body).toBe(before);
  });

  it('an unknown slug answers 404 and is not kept: created later, it is served', async () => {
    const slug = 'kept-later-market';
    expect((await get(`/v2/markets/${slug}`)).statusCode).toBe(404);
    expect((await get(`/v2/markets/${slug}`)).statusCode).toBe(404);
    await createMarket(h, { name: 'Created after its 404', slug });
    const res = await get(`/v2/markets/${slug}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(await freshSummary(slug));
  });

  it('a repeat list read sends the same bytes as a fresh page; commits from anywhere show in the next read', async () => {
    await createMarket(h, { name: 'Listed first' });
    const first = await get('/v2/markets?limit=5');
    expect(first.statusCode).toBe(200);
    expect(first.body).toBe(await freshList(5));
    expect((await get('/v2/markets?limit=5')).body).toBe(first.body);
    const top = first.json().data.markets[0].slug as string;

    await h.ctx.db.updateTable('markets').set({ name: 'Renamed by the main connection' }).where('slug', '=', top).execute();
    let res = await get('/v2/markets?limit=5');
    expect(res.json().data.markets[0].name).toBe('Renamed by the main connection');
    expect(res.body).toBe(await freshList(5));

    commitFromAnotherProcess(`update markets set name = 'Renamed by another process' where slug = '${top}'`);
    res = await get('/v2/markets?limit=5');
    expect(res.json().data.markets[0].name).toBe('Renamed by another process');
    expect(res.body).toBe(await freshList(5));

    const created = await createMarket(h, { name: 'Created after the kept page' });
    res = await get('/v2/markets?limit=5');
    expect(res.json().data.markets[0].slug).toBe(created.slug);
    expect(res.json().data.count).toBe(first.json().data.count + 1);
    expect(res.body).toBe(await freshList(5));
  });

  it('pages differing in any query value are kept apart, list and search alike', async () => {
    await createMarket(h, { name: 'Zebra crossing', description: 'stripes' });
    await createMarket(h, { name: 'Zebra herd', description: 'stripes' });
    const one = (await get('/v2/markets?limit=1')).json().data;
    const two = (await get('/v2/markets?limit=2')).json().data;
    expect(one.markets).toHaveLength(1);
    expect(two.markets).toHaveLength(2);
    expect((await get('/v2/markets?limit=1&offset=1')).json().data.markets[0]).toEqual(two.markets[1]);
    const search = (await get('/v2/markets/search?q=zebra&limit=1')).json().data;
    expect(search).toMatchObject({ count: 2, hasMore: true });
    const next = (await get(`/v2/markets/search?q=zebra&limit=1&cursor=${encodeURIComponent(search.nextCursor)}`)).json().data;
    expect(next.markets[0].slug).not.toBe(search.markets[0].slug);
    expect((await get('/v2/markets?q=zebra&limit=1')).body).toBe((await get('/v2/markets/search?q=zebra&limit=1')).body);
    expect((await get('/v2/markets?limit=1&offset=1&cursor=x')).statusCode).toBe(400); // refused, and not kept
    expect((await get('/v2/markets?limit=1&offset=1&cursor=x')).statusCode).toBe(400);
  });
});
