/**
 * Family B through the real daemon (startDaemon in this process: embedded ledger, SQLite, Redis
 * queues, workers, the Fastify app listening on 127.0.0.1):
 * - GET /v2/markets/{id} and GET /v2/positions/{wallet} requests per second over keep-alive HTTP
 *   (N requests, C in flight) against a bare Fastify route returning the same JSON bytes in the
 *   same run (ratio = ours / bare);
 * - POST /v2/markets/{id}/buy latency p50/p99 (validation → tx-build queue → worker → builder);
 * - indexing rate: upsertTokenAccounts of 20 000 rows against raw better-sqlite3 prepared
 *   inserts of the same rows in one transaction (ratio = ours / raw), and the floor: raw upserts
 *   with our turn slicing (bench/support/indexing-rate.ts).
 * Needs Redis: REDIS_URL or 127.0.0.1:6379. Run standalone: `npx tsx bench/family-b.bench.ts`.
 */
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { buy, createMarket, fundedWallet, openHarness, USDC, waitFor } from '../test/family-b/family-b.harness.js';
import { formatMs, summarize, timeMs } from './stats.js';
import { indexingRate } from './support/indexing-rate.js';

const READ_N = Number(process.env.BENCH_READ_N ?? 4_000);
const CONCURRENCY = 8;
const WRITE_N = Number(process.env.BENCH_WRITE_N ?? 200);
const INDEX_ROWS = 20_000;

/** N GETs of `url` with C requests in flight over one keep-alive agent; returns requests/s. */
async function requestsPerSecond(url: string, n: number, concurrency: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const once = () =>
    new Promise<void>((resolve, reject) => {
      http
        .get(url, { agent }, (res) => {
          if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
          res.resume();
          res.on('end', resolve);
        })
        .on('error', reject);
    });
  let next = 0;
  const lane = async () => {
    while (next++ < n) await once();
  };
  for (let i = 0; i < 50; i++) await once(); // warm-up
  next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, lane));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return n / seconds;
}

export async function run(): Promise<Record<string, number>> {
  const h = await openHarness();
  const bare = Fastify({ logger: false });
  try {
    const [creator, trader] = await Promise.all([fundedWallet(h), fundedWallet(h)]);
    const id = await createMarket(h, creator);
    await buy(h, id, trader, 'UP', 5 * USDC);
    await buy(h, id, trader, 'DOWN', 3 * USDC);
    const wallet = trader.publicKey.toBase58();
    await waitFor('positions indexed', async () => {
      const p = (await h.app.inject({ method: 'GET', url: `/v2/positions/${wallet}` })).json().data as Array<{ noBalance: number }>;
      return p[0]?.noBalance ? true : undefined;
    });
    const base = h.daemon.url!;
    const bodies = {
      market: (await h.app.inject({ method: 'GET', url: `/v2/markets/${id}` })).body,
      positions: (await h.app.inject({ method: 'GET', url: `/v2/positions/${wallet}` })).body,
    };
    bare.get('/market', async (_req, reply) => reply.type('application/json').send(bodies.market));
    bare.get('/positions', async (_req, reply) => reply.type('application/json').send(bodies.positions));
    const bareBase = await bare.listen({ host: '127.0.0.1', port: 0 });

    const out: Record<string, number> = {};
    for (const [label, ours, baseline, bytes] of [
      ['GET /v2/markets/{id}', `${base}/v2/markets/${id}`, `${bareBase}/market`, bodies.market.length],
      ['GET /v2/positions/{wallet}', `${base}/v2/positions/${wallet}`, `${bareBase}/positions`, bodies.positions.length],
    ] as const) {
      const oursRps = await requestsPerSecond(ours, READ_N, CONCURRENCY);
      const bareRps = await requestsPerSecond(baseline, READ_N, CONCURRENCY);
      out[`${label} rps`] = oursRps;
      console.log(
        `${label}: ${oursRps.toFixed(0)} req/s vs bare ${bareRps.toFixed(0)} req/s (ratio ${(oursRps / bareRps).toFixed(2)}x; N=${READ_N}, ${CONCURRENCY} in flight, keep-alive, ${bytes} B body)`,
      );
    }

    const samples: number[] = [];
    for (let i = 0; i < WRITE_N + 20; i++) {
      const ms = await timeMs(async () => {
        const res = await fetch(`${base}/v2/markets/${id}/buy`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ wallet, side: 'UP', amount: USDC }),
        });
        if (res.status !== 200) throw new Error(`buy: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
      });
      if (i >= 20) samples.push(ms);
    }
    const w = summarize(samples);
    out['buy p50 ms'] = w.p50;
    out['buy p99 ms'] = w.p99;
    console.log(
      `POST /v2/markets/{id}/buy (through the tx-build queue): p50 ${formatMs(w.p50)} p99 ${formatMs(w.p99)} (N=${WRITE_N}, sequential, after 20 warm-up)`,
    );

    const idx = await indexingRate(INDEX_ROWS);
    out['index rows/s'] = idx.ours;
    console.log(
      `indexing (upsertTokenAccounts, ${INDEX_ROWS} rows): ${idx.ours.toFixed(0)} rows/s vs raw better-sqlite3 ${idx.raw.toFixed(0)} rows/s (ratio ${(idx.ours / idx.raw).toFixed(2)}x; ` +
        `floor, raw upserts turn-sliced: ${idx.floor.toFixed(0)} rows/s, ${(idx.floor / idx.raw).toFixed(2)}x raw, ours ${(idx.ours / idx.floor).toFixed(2)}x floor)`,
    );
    return out;
  } finally {
    await bare.close();
    await h.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
}
