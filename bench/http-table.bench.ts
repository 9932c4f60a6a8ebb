/**
 * Issue 15's measuring table, in one run. The daemon runs in its own process (embedded cluster,
 * SQLite, private Redis; the compiled dist/src/main.js as `npm start` runs it, built first when
 * stale, or the sources through tsx with BENCH_DAEMON=tsx), the baselines in another
 * (bench/support/bare-server.ts: a bare Fastify 5 route, and a bare node:http server for the
 * JSON-RPC rows, each answering the row's exact bytes), and autocannon (10 connections) drives
 * both from this one, ours and the baseline interleaved, `BENCH_TABLE_REPS` rounds of
 * `BENCH_TABLE_SECONDS` each (defaults 3 × 3 s: about four minutes; the issue's own figures were
 * 3 × 20 s). Each ratio printed is the median of the rounds' ratios, beside its goal. Rate limits
 * are on (a limit no row reaches), so their cost is in every row, as in production. Under each
 * HTTP row, its floor (support/floor-app.ts: the same bytes with the cheapest rate limit, metric
 * and log check) against the same bare app: the best that row could do with those duties kept.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { spawnDaemon, waitForStatus } from '../test/daemon/daemon-process.js';
import { tempDir } from '../test/helpers/databases.js';
import type { BareReply } from './support/bare-server.js';
import { cannon, median, medianRatio, rateOf, rotated, type Rate } from './support/cannon.js';
import { CATALOG, daemonEntry, setUp } from './support/daemon-fixture.js';
import { indexingRate } from './support/indexing-rate.js';
import { SEND_CONFIRM_BARE, sendConfirmRow } from './support/send-confirm-row.js';

const SECONDS = Number(process.env.BENCH_TABLE_SECONDS ?? 3);
const REPS = Number(process.env.BENCH_TABLE_REPS ?? 3);
const CONNECTIONS = 10;
const SEND_N = Number(process.env.BENCH_TABLE_SEND_N ?? 2_000);
/** `BENCH_TABLE_ONLY=health,quote,buy` measures only the rows whose label contains one of the words. */
const ONLY = process.env.BENCH_TABLE_ONLY?.split(',')
  .map((w) => w.trim().toLowerCase())
  .filter(Boolean);
const wanted = (label: string) => !ONLY || ONLY.some((w) => label.toLowerCase().includes(w));

/** The bare servers' process: resolves with its two base URLs once it listens. */
async function startBare(spec: { http: BareReply[]; rpc: BareReply[] }) {
  const child = spawn(
    process.execPath,
    ['--conditions=pmx-source', '--import', 'tsx', path.join(import.meta.dirname, 'support/bare-server.ts')],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  child.stdin!.write(`${JSON.stringify(spec)}\n`);
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  const urls = JSON.parse(line) as { fastify: string; rpc: string; floor: string };
  return { ...urls, close: () => child.stdin!.end() };
}

interface Row {
  label: string;
  goal: number;
  ours: { url: string; method: 'GET' | 'POST'; body?: string };
  bare: { url: string; method: 'GET' | 'POST'; body?: string };
  /** HTTP rows: the same bytes from bare Fastify plus the cheapest per-request duties (support/floor-app.ts). */
  floor?: { url: string; method: 'GET' };
}

async function measure(target: Row['ours'], seconds: number): Promise<Rate> {
  const rate = rateOf(
    await cannon({
      url: target.url,
      method: target.method,
      connections: CONNECTIONS,
      duration: seconds,
      ...(target.body ? { body: target.body, headers: { 'content-type': 'application/json' } } : {}),
    }),
  );
  if (rate.failures > 0) throw new Error(`${target.method} ${target.url}: ${rate.failures} requests failed`);
  return rate;
}

/**
 * An HTTP row's floor: what the row could reach at best with the duties every route keeps (rate
 * limit and its headers, the latency metric, the request log's level check), measured in the same
 * rounds as ours and bare (`rotated`), so ours/floor compares one machine state. `BENCH_TABLE_FLOORS=0`
 * skips them.
 */
const FLOORS = process.env.BENCH_TABLE_FLOORS !== '0';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const lines: string[] = [];
function report(label: string, ours: string, base: string, result: string, goal: string): void {
  const line = `  ${label.padEnd(50)} ${ours.padStart(16)} ${base.padStart(16)}  ${result.padEnd(14)} ${goal}`;
  lines.push(line);
  console.log(line);
}

export async function run(): Promise<void> {
  const daemon = await spawnDaemon(
    tempDir('pmx-bench-table-'),
    {
      RATE_LIMIT_READ_PER_MIN: '1000000',
      RATE_LIMIT_WRITE_PER_MIN: '1000000',
      LOG_LEVEL: 'warn',
      HTTP_MAX_CONNECTIONS_PER_CLIENT: '0',
    },
    [],
    daemonEntry(),
  );
  let bare: Awaited<ReturnType<typeof startBare>> | undefined;
  try {
    await waitForStatus(daemon, '/health', 200, 60_000);
    const f = await setUp(daemon);
    const wallet = f.trader.publicKey.toBase58();
    const ata = getAssociatedTokenAddressSync(f.usdcMint, f.trader.publicKey).toBase58();
    const http: Array<{ label: string; path: string; goal: number }> = [
      { label: 'GET /health vs bare hello', path: '/health', goal: 0.8 },
      { label: 'GET /v2/config', path: '/v2/config', goal: 0.5 },
      { label: 'GET /v2/markets/{id}', path: `/v2/markets/${f.marketId}`, goal: 0.5 },
      { label: 'GET /v2/markets/{slug}', path: `/v2/markets/${f.slug}`, goal: 0.5 },
      { label: 'GET /v2/markets/{id}/quote', path: `/v2/markets/${f.marketId}/quote?side=UP&amount=1000000`, goal: 0.5 },
      { label: `GET /v2/markets?limit=20 (${CATALOG} in catalog)`, path: '/v2/markets?limit=20', goal: 0.5 },
      { label: 'GET /v2/positions/{wallet}', path: `/v2/positions/${wallet}`, goal: 0.5 },
    ];
    const rpc: Array<{ label: string; body: string; goal: number }> = [
      {
        label: 'JSON-RPC getAccountInfo vs bare node:http',
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getAccountInfo', params: [ata, { encoding: 'base64' }] }),
        goal: 0.7,
      },
      {
        label: 'JSON-RPC getTokenAccountBalance vs bare node:http',
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getTokenAccountBalance', params: [ata] }),
        goal: 0.7,
      },
    ];
    // The baselines answer exactly what the daemon answers (status, content type, bytes).
    const spec: { http: BareReply[]; rpc: BareReply[] } = { http: [], rpc: [] };
    for (const [i, r] of http.entries()) {
      const res = await fetch(`${daemon.url}${r.path}`);
      spec.http.push({
        path: `/r${i}`,
        method: 'GET',
        status: res.status,
        contentType: res.headers.get('content-type') ?? 'application/json',
        body: await res.text(),
      });
    }
    for (const [i, r] of rpc.entries()) {
      const res = await fetch(f.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: r.body });
      spec.rpc.push({ path: `/rpc${i}`, method: 'POST', status: res.status, contentType: 'application/json', body: await res.text() });
    }
    spec.rpc.push(SEND_CONFIRM_BARE);
    bare = await startBare(spec);
    const rows: Row[] = [
      ...http.map((r, i) => ({
        label: r.label,
        goal: r.goal,
        ours: { url: `${daemon.url}${r.path}`, method: 'GET' as const },
        bare: { url: `${bare!.fastify}/r${i}`, method: 'GET' as const },
        floor: { url: `${bare!.floor}/r${i}`, method: 'GET' as const },
      })),
      ...rpc.map((r, i) => ({
        label: r.label,
        goal: r.goal,
        ours: { url: f.rpcUrl, method: 'POST' as const, body: r.body },
        bare: { url: `${bare!.rpc}/rpc${i}`, method: 'POST' as const, body: r.body },
      })),
    ];

    console.log(
      `  autocannon, ${CONNECTIONS} connections, ${REPS} rounds of ${SECONDS} s per side, each round rotating ours, bare and the floor; daemon pid ${daemon.child.pid}; ratio = median of the rounds' ours/bare`,
    );
    report('row', 'ours', 'baseline', 'ratio', 'goal');
    for (const row of rows.filter((r) => wanted(r.label))) {
      const floor = FLOORS ? row.floor : undefined;
      const sides = floor ? [row.ours, row.bare, floor] : [row.ours, row.bare];
      for (const side of sides) await measure(side, 1); // warm-up: JIT, connections, caches
      const [ours, bare, floorRates] = await rotated(
        REPS,
        sides.map((side) => () => measure(side, SECONDS)),
      );
      const medianRps = (rates: Rate[]) => `${fmt(median(rates.map((x) => x.rps)))} req/s`;
      report(row.label, medianRps(ours!), medianRps(bare!), `${medianRatio(ours!, bare!).toFixed(2)}x`, `≥ ${row.goal}x`);
      if (floorRates)
        report(
          '  its floor: bare + limit, metric, log check',
          medianRps(floorRates),
          medianRps(bare!),
          `${medianRatio(floorRates, bare!).toFixed(2)}x`,
          `ours/floor ${medianRatio(ours!, floorRates).toFixed(2)}x`,
        );
    }

    const buyLabel = 'POST /v2/markets/{id}/buy (through the queue)';
    if (wanted(buyLabel)) {
      // The write path: validation → tx-build queue → worker → builder → answer. Absolute goals.
      const buy = {
        url: `${daemon.url}/v2/markets/${f.marketId}/buy`,
        method: 'POST' as const,
        body: JSON.stringify({ wallet, side: 'UP', amount: 1_000_000 }),
      };
      await measure(buy, 1);
      const buys: Rate[] = [];
      for (let i = 0; i < REPS; i++) buys.push(await measure(buy, SECONDS));
      report(
        buyLabel,
        `${fmt(median(buys.map((b) => b.rps)))} req/s`,
        '',
        `p50 ${median(buys.map((b) => b.p50))} ms`,
        '≥ 3,000 req/s, p50 ≤ 5 ms',
      );
    }
    if (wanted('JSON-RPC send + confirm')) {
      const opts = { reps: REPS, n: SEND_N, connections: CONNECTIONS };
      const s = await sendConfirmRow(daemon.url, f, `${bare.rpc}${SEND_CONFIRM_BARE.path}`, opts);
      const reachable = s.floorOverDirect >= 0.35 ? 'reachable' : 'UNREACHABLE: the floor is below the goal';
      report(
        'JSON-RPC send + confirm vs LiteSVM direct',
        `${fmt(s.ours)} tx/s`,
        `${fmt(s.direct)} tx/s`,
        `${s.oursOverDirect.toFixed(2)}x`,
        `≥ 0.35x (issue 31); ceiling ${s.ceilingOverDirect.toFixed(2)}x = bare HTTP ${fmt(s.bare)} tx/s then LiteSVM, serial`,
      );
      // The durable floor: HTTP + LiteSVM + one SQLite commit per turn's group, the ledger's durability.
      report(
        '  its durable floor vs LiteSVM direct',
        `${fmt(s.floor)} tx/s`,
        `${fmt(s.direct)} tx/s`,
        `${s.floorOverDirect.toFixed(2)}x`,
        `ours/floor ${s.oursOverFloor.toFixed(2)}x; goal ${reachable}`,
      );
    }
    if (wanted('Indexing token accounts')) {
      // Each round measures both sides (ours, then raw better-sqlite3) on fresh databases.
      const idx: Array<{ ours: number; raw: number; floor: number }> = [];
      for (let i = 0; i < REPS; i++) idx.push(await indexingRate(20_000));
      report(
        'Indexing token accounts vs raw better-sqlite3',
        `${fmt(median(idx.map((x) => x.ours)))} rows/s`,
        `${fmt(median(idx.map((x) => x.raw)))} rows/s`,
        `${median(idx.map((x) => x.ours / x.raw)).toFixed(2)}x`,
        '≥ 0.7x',
      );
      // The floor (raw better-sqlite3 with our turn slicing and commit): what ours can reach at best.
      report(
        '  its floor: raw upserts, turn-sliced, vs raw',
        `${fmt(median(idx.map((x) => x.floor)))} rows/s`,
        `${fmt(median(idx.map((x) => x.raw)))} rows/s`,
        `${median(idx.map((x) => x.floor / x.raw)).toFixed(2)}x`,
        `ours/floor ${median(idx.map((x) => x.ours / x.floor)).toFixed(2)}x`,
      );
    }
    console.log('\n  summary (busy shared 2-core machine; client, daemon and baseline share it):');
    for (const line of lines) console.log(line);
  } finally {
    bare?.close();
    daemon.child.kill('SIGINT');
    await daemon.exited;
  }
}
