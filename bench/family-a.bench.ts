/**
 * Family A: list and search requests per second over real HTTP at 100,000 markets (SQLite, FTS5),
 * as a ratio to a bare Fastify route measured in the same run; and the latency of buy step 2
 * (on-chain payment verification + recording + delivery confirmed) on the embedded cluster.
 * Run: `npm run bench -- family-a` or `npx tsx bench/family-a.bench.ts`. Needs Redis (REDIS_URL).
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { createHarness, createMarket, fundedUser, transfer, xPayment, type Harness } from '../test/family-a/family-a.harness.js';
import { summarize } from './stats.js';
import type { DatabaseHandle } from '../db/database.js';
import { countMarkets, listMarkets } from '../db/repositories/family-a-markets.repository.js';
import { PG_AVAILABLE, postgresDatabase, sqliteDatabase } from '../test/helpers/databases.js';

const WORDS = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}x${(i * 7919) % 1000}`);
const MARKETS = Number(process.env.FAMILY_A_BENCH_MARKETS ?? 100_000);
const SECONDS = 3;
const CONCURRENCY = 16;

async function seed(h: Pick<Harness, 'ctx'> | { ctx: { db: DatabaseHandle['db'] } }, n: number): Promise<void> {
  const t0 = Date.parse('2025-01-01T00:00:00Z');
  for (let start = 0; start < n; start += 1000) {
    const rows = [];
    for (let i = start; i < Math.min(n, start + 1000); i++) {
      const created = new Date(t0 + i * 1000).toISOString();
      rows.push({
        id: randomUUID(), slug: `m-${i}`, kind: 'x402' as const, name: `Will ${WORDS[i % 400]} beat ${WORDS[(i * 31) % 400]} in ${2026 + (i % 5)}?`,
        description: `Market ${i} about ${WORDS[(i * 17) % 400]} and ${WORDS[(i * 13) % 400]}`, category: 'bench', tags: '[]', image_urls: '[]',
        status: i % 3 === 0 ? 'resolved' : 'live', yes_ticker: 'YES', no_ticker: 'NO', published: 1, created_at: created, updated_at: created,
      });
    }
    await h.ctx.db.insertInto('markets').values(rows).execute();
  }
}

async function rps(url: string, path: () => string): Promise<number> {
  let done = 0;
  const deadline = performance.now() + SECONDS * 1000;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (performance.now() < deadline) {
      const res = await fetch(url + path());
      if (res.status !== 200) throw new Error(`${path()} answered ${res.status}`);
      await res.arrayBuffer();
      done++;
    }
  }));
  return done / SECONDS;
}

async function step2Latency(h: Harness, n: number) {
  const market = await createMarket(h);
  const samples: number[] = [];
  const user = await fundedUser(h, 1_000_000_000n);
  const wallet = user.publicKey.toBase58();
  for (let i = 0; i < n; i++) {
    const q = (await h.t.app.inject({ method: 'POST', url: `/v2/markets/${market.slug}/trade/buy`, payload: { wallet, amount: 1, side: 'YES' } })).json();
    const sig = await transfer(h, user, h.usdcMint, q.payment.payTo, 1_000_000n);
    const header = xPayment({ txHash: sig, amount: 1, payer: wallet, payTo: q.payment.payTo, asset: h.usdcMint, quoteIssuedAt: q.quote.issuedAt });
    const t0 = performance.now();
    const res = await h.t.app.inject({ method: 'POST', url: `/v2/markets/${market.slug}/trade/buy`, headers: { 'x-payment': header }, payload: { wallet, amount: 1, side: 'YES' } });
    samples.push(performance.now() - t0);
    if (res.statusCode !== 200 || res.json().data.deliveryStatus !== 'confirmed') throw new Error(`step 2 failed: ${res.body}`);
  }
  return summarize(samples);
}

/** Query latency at the repository (no HTTP) on a dialect: page + count, list and search. */
async function queryLatency(db: DatabaseHandle): Promise<string> {
  await seed({ ctx: { db: db.db } }, MARKETS);
  // What autovacuum does shortly after a bulk load in production.
  if (db.dialect === 'postgres') await sql`analyze markets`.execute(db.db);
  const time = async (f: () => Promise<unknown>) => {
    const samples: number[] = [];
    for (let i = 0; i < 60; i++) {
      const t0 = performance.now();
      await f();
      samples.push(performance.now() - t0);
    }
    return summarize(samples.slice(10)).p50.toFixed(2);
  };
  let i = 0;
  const list = await time(() => Promise.all([listMarkets(db.db, db.dialect, {}, 20, 0), countMarkets(db.db, db.dialect, {})]));
  const search = await time(() => {
    const terms = [WORDS[i++ % 400]!];
    return Promise.all([listMarkets(db.db, db.dialect, { terms }, 20, 0), countMarkets(db.db, db.dialect, { terms })]);
  });
  return `${db.dialect}: list+count p50 ${list} ms, search+count p50 ${search} ms`;
}

export async function run(): Promise<void> {
  const h = await createHarness({ readPerMinute: 10_000_000, writePerMinute: 10_000_000 });
  const bare = Fastify();
  bare.get('/bare', async () => ({ success: true, data: { markets: [], count: 0 } }));
  try {
    const s0 = performance.now();
    await seed(h, MARKETS);
    console.log(`family-a: seeded ${MARKETS.toLocaleString('en-US')} markets in ${((performance.now() - s0) / 1000).toFixed(1)} s`);
    const apiUrl = await h.t.app.listen({ port: 0, host: '127.0.0.1' });
    const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
    let i = 0;
    const baseline = await rps(bareUrl, () => '/bare');
    // The same app's /health: what the shared stack (rate limit in Redis, metrics, hooks) costs.
    const health = await rps(apiUrl, () => '/health');
    const list = await rps(apiUrl, () => `/v2/markets?limit=20&offset=${(i++ % 50) * 20}`);
    const filtered = await rps(apiUrl, () => `/v2/markets?status=resolved&limit=20`);
    const search = await rps(apiUrl, () => `/v2/markets/search?q=${WORDS[i++ % 400]}&limit=20`);
    const baseline2 = await rps(bareUrl, () => '/bare');
    const base = Math.max(baseline, baseline2);
    const fmt = (x: number) => `${Math.round(x).toLocaleString('en-US')} req/s (${(x / base).toFixed(2)}x bare)`;
    console.log(`family-a.http: bare Fastify ${Math.round(base).toLocaleString('en-US')} req/s; app /health ${fmt(health)}; list ${fmt(list)}; list status=resolved ${fmt(filtered)}; search ${fmt(search)} (${CONCURRENCY} in flight, ${SECONDS} s each, ${MARKETS.toLocaleString('en-US')} markets)`);
    const lat = await step2Latency(h, Number(process.env.FAMILY_A_BENCH_BUYS ?? 40));
    console.log(`family-a.step2: buy step 2 (verify payment on chain + record + deliver, confirmed) p50 ${lat.p50.toFixed(1)} ms, p99 ${lat.p99.toFixed(1)} ms, max ${lat.max.toFixed(1)} ms over ${lat.n} buys`);
  } finally {
    await bare.close();
    await h.close();
  }
  const lines: string[] = [];
  for (const open of [sqliteDatabase, ...(PG_AVAILABLE ? [postgresDatabase] : [])]) {
    const db = await open();
    try {
      lines.push(await queryLatency(db));
    } finally {
      await db.close();
    }
  }
  console.log(`family-a.queries (repository, no cache, ${MARKETS.toLocaleString('en-US')} markets): ${lines.join('; ')}${PG_AVAILABLE ? '' : '; PostgreSQL unreachable: not measured'}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
  process.exit(0);
}
