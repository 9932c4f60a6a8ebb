/**
 * Family A: list and search requests per second over real HTTP at 100,000 markets (SQLite, FTS5),
 * by autocannon, as a ratio to a bare Fastify route measured in the same run (issue 15 item 4: a
 * deep page by offset and by cursor, a search whose prefix matches every market); and the latency of buy step 2
 * (on-chain payment verification + recording + delivery confirmed) on the embedded cluster.
 * Run: `npm run bench -- family-a` or `npx tsx bench/family-a.bench.ts`. Needs Redis (REDIS_URL).
 */
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { createHarness, createMarket, fundedUser, transfer, xPayment, type Harness } from '../test/family-a/family-a.harness.js';
import { summarize } from './stats.js';
import { cannon, rateOf } from './support/cannon.js';
import { seedCatalog, WORDS } from './support/catalog-seed.js';
import type { DatabaseHandle } from '../db/database.js';
import { countMarkets, listMarkets } from '../db/repositories/family-a-markets.repository.js';
import { PG_AVAILABLE, postgresDatabase, sqliteDatabase } from '../test/helpers/databases.js';

const MARKETS = Number(process.env.FAMILY_A_BENCH_MARKETS ?? 100_000);
const SECONDS = 3;
const CONNECTIONS = 10;

function seed(h: { ctx: { db: DatabaseHandle['db'] } }, n: number): Promise<void> {
  return seedCatalog(h.ctx.db, n);
}

/** Requests per second of GET `path` by autocannon (10 connections, SECONDS); every answer must be 200. */
async function rps(url: string, path: string): Promise<number> {
  const r = rateOf(await cannon({ url: url + path, connections: CONNECTIONS, duration: SECONDS }));
  if (r.failures > 0) throw new Error(`${path}: ${r.failures} requests were not 200`);
  return r.rps;
}

async function step2Latency(h: Harness, n: number) {
  const market = await createMarket(h);
  const samples: number[] = [];
  const user = await fundedUser(h, 1_000_000_000n);
  const wallet = user.publicKey.toBase58();
  for (let i = 0; i < n; i++) {
    const q = (
      await h.t.app.inject({ method: 'POST', url: `/v2/markets/${market.slug}/trade/buy`, payload: { wallet, amount: 1, side: 'YES' } })
    ).json();
    const sig = await transfer(h, user, h.usdcMint, q.payment.payTo, 1_000_000n);
    const header = xPayment({
      txHash: sig,
      amount: 1,
      payer: wallet,
      payTo: q.payment.payTo,
      asset: h.usdcMint,
      quoteIssuedAt: q.quote.issuedAt,
    });
    const t0 = performance.now();
    const res = await h.t.app.inject({
      method: 'POST',
      url: `/v2/markets/${market.slug}/trade/buy`,
      headers: { 'x-payment': header },
      payload: { wallet, amount: 1, side: 'YES' },
    });
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
    const baseline = await rps(bareUrl, '/bare');
    // The same app's /health: what the shared stack (rate limit, metrics, hooks) costs.
    const health = await rps(apiUrl, '/health');
    const list = await rps(apiUrl, '/v2/markets?limit=20');
    const filtered = await rps(apiUrl, '/v2/markets?status=live&limit=20');
    // Deep pages: by offset (steps over 50,000 rows) and by cursor (seeks to the same place).
    const deep = MARKETS / 2;
    const cursor = ((await (await fetch(`${apiUrl}/v2/markets?limit=20&offset=${deep - 20}`)).json()) as { data: { nextCursor: string } })
      .data.nextCursor;
    const deepOffset = await rps(apiUrl, `/v2/markets?limit=20&offset=${deep}`);
    const deepCursor = await rps(apiUrl, `/v2/markets?limit=20&cursor=${cursor}`);
    const search = await rps(apiUrl, `/v2/markets/search?q=${WORDS[7]}&limit=20`);
    // A prefix found in every market's name ("Will …"), and a one-letter one (every name has w-words).
    const searchAll = await rps(apiUrl, '/v2/markets/search?q=will&limit=20');
    const searchW = await rps(apiUrl, '/v2/markets/search?q=w&limit=20');
    const baseline2 = await rps(bareUrl, '/bare');
    const base = Math.max(baseline, baseline2);
    const fmt = (x: number) => `${Math.round(x).toLocaleString('en-US')} req/s (${(x / base).toFixed(2)}x bare)`;
    const n = MARKETS.toLocaleString('en-US');
    console.log(
      `family-a.http (${n} markets, autocannon ${CONNECTIONS} connections, ${SECONDS} s each): bare Fastify ${Math.round(base).toLocaleString('en-US')} req/s`,
    );
    for (const [label, x] of [
      ['/health', health],
      ['list', list],
      ['list status=live', filtered],
      [`list offset=${deep.toLocaleString('en-US')}`, deepOffset],
      [`list by cursor at the same depth`, deepCursor],
      ['search (one word)', search],
      ['search "will" (matches every market)', searchAll],
      ['search "w" (a prefix of 400 words, every market)', searchW],
    ] as const)
      console.log(`  ${label.padEnd(48)} ${fmt(x)}`);
    const lat = await step2Latency(h, Number(process.env.FAMILY_A_BENCH_BUYS ?? 40));
    console.log(
      `family-a.step2: buy step 2 (verify payment on chain + record + deliver, confirmed) p50 ${lat.p50.toFixed(1)} ms, p99 ${lat.p99.toFixed(1)} ms, max ${lat.max.toFixed(1)} ms over ${lat.n} buys`,
    );
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
  console.log(
    `family-a.queries (repository, no cache, ${MARKETS.toLocaleString('en-US')} markets): ${lines.join('; ')}${PG_AVAILABLE ? '' : '; PostgreSQL unreachable: not measured'}`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
  process.exit(0);
}
