/**
 * Issue 9's load bench against the real daemon in its own process (embedded cluster, SQLite,
 * private Redis): the read routes alone, then 50 mixed clients — 30 reading, 15 building buy
 * transactions through the queue, 5 asking for redeem-all — for the same time. Prints the reads'
 * p99 under load against their p99 alone (goal: within 5×) and the daemon's RSS before and after.
 * `BENCH_MIXED_SECONDS` (default 60) sets each phase's length. Uses autocannon, which does not cap
 * the server as a Node keep-alive agent loop does.
 */
import fs from 'node:fs';
import { Connection, Keypair, Transaction } from '@solana/web3.js';
import autocannon from 'autocannon';
import { spawnDaemon, waitForStatus, type DaemonProcess } from '../test/daemon/daemon-process.js';
import { tempDir } from '../test/helpers/databases.js';

const SECONDS = Number(process.env.BENCH_MIXED_SECONDS ?? 60);
type Json = Record<string, unknown>;

async function call(base: string, method: string, path: string, body?: Json): Promise<Json> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as Json;
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data as Json;
}

async function signAndSend(conn: Connection, base64: string, signer: Keypair): Promise<void> {
  const tx = Transaction.from(Buffer.from(base64, 'base64'));
  tx.sign(signer);
  const signature = await conn.sendRawTransaction(tx.serialize());
  await conn.confirmTransaction(signature, 'confirmed');
}

function rssMb(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.replace(/\D+/g, '')) / 1024;
}

function cannon(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => autocannon(opts, (err, result) => (err ? reject(err) : resolve(result))));
}

async function setUp(daemon: DaemonProcess): Promise<{ marketId: number; trader: string }> {
  const base = daemon.url;
  const config = await call(base, 'GET', '/v2/config');
  const conn = new Connection(config.rpcUrl as string, 'confirmed');
  const creator = Keypair.generate();
  const trader = Keypair.generate();
  for (const w of [creator, trader])
    await call(base, 'POST', '/v2/dev/faucet', { wallet: w.publicKey.toBase58(), usdc: '100000000000', sol: '2000000000' });
  const created = await call(base, 'POST', '/v2/markets/create', {
    wallet: creator.publicKey.toBase58(),
    title: 'Bench market',
    description: 'Mixed load',
    yesTicker: 'UP',
    noTicker: 'DOWN',
    resolutionTime: Math.floor(Date.now() / 1000) + 86_400,
    seedAmount: 100_000_000,
    tradeFeeBps: 200,
  });
  await signAndSend(conn, created.transaction as string, creator);
  const marketId = created.marketId as number;
  await signAndSend(
    conn,
    (await call(base, 'POST', `/v2/markets/${marketId}/init-mints`, { wallet: creator.publicKey.toBase58() })).transaction as string,
    creator,
  );
  const bought = await call(base, 'POST', `/v2/markets/${marketId}/buy`, {
    wallet: trader.publicKey.toBase58(),
    side: 'UP',
    amount: 5_000_000,
  });
  await signAndSend(conn, bought.transaction as string, trader);
  return { marketId, trader: trader.publicKey.toBase58() };
}

export async function run(): Promise<void> {
  const daemon = await spawnDaemon(tempDir('pmx-bench-mixed-'), {
    RATE_LIMIT_READ_PER_MIN: '1000000',
    RATE_LIMIT_WRITE_PER_MIN: '1000000',
    LOG_LEVEL: 'warn',
    HTTP_MAX_CONNECTIONS_PER_CLIENT: '0',
  });
  try {
    await waitForStatus(daemon, '/health', 200, 60_000);
    const { marketId, trader } = await setUp(daemon);
    const pid = daemon.child.pid!;
    const reads = [`/v2/markets/${marketId}`, `/v2/positions/${trader}`, '/v2/config'].map((path) => ({ method: 'GET' as const, path }));
    const json = { 'content-type': 'application/json' };
    const buy = {
      method: 'POST' as const,
      path: `/v2/markets/${marketId}/buy`,
      headers: json,
      body: JSON.stringify({ wallet: trader, side: 'UP', amount: 1_000_000 }),
    };
    const redeemAll = { method: 'POST' as const, path: '/v2/redeem-all', headers: json, body: JSON.stringify({ wallet: trader }) };

    await cannon({ url: daemon.url, connections: 10, duration: 3, requests: reads }); // warm-up
    const rssBefore = rssMb(pid);
    const alone = await cannon({ url: daemon.url, connections: 30, duration: SECONDS, requests: reads });
    const [loaded, writes, redeems] = await Promise.all([
      cannon({ url: daemon.url, connections: 30, duration: SECONDS, requests: reads }),
      cannon({ url: daemon.url, connections: 15, duration: SECONDS, requests: [buy] }),
      cannon({ url: daemon.url, connections: 5, duration: SECONDS, requests: [redeemAll] }),
    ]);
    const rssAfter = rssMb(pid);
    const line = (name: string, r: autocannon.Result) =>
      `  ${name.padEnd(34)} ${Math.round(r.requests.average).toString().padStart(6)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  non-2xx ${r.non2xx}  errors ${r.errors}`;
    console.log(`  phases of ${SECONDS} s each, daemon pid ${pid}`);
    console.log(line('reads alone (30 conns)', alone));
    console.log(line('reads under mixed load (30 conns)', loaded));
    console.log(line('buy builds (15 conns)', writes));
    console.log(line('redeem-all (5 conns)', redeems));
    const ratio = loaded.latency.p99 / Math.max(alone.latency.p99, 1);
    console.log(`  read p99 under load / alone: ${ratio.toFixed(2)}× (goal ≤ 5×)`);
    console.log(`  daemon RSS: ${rssBefore.toFixed(0)} MB before the load phases, ${rssAfter.toFixed(0)} MB after`);
    // Where the resident memory is: the daemon's own /metrics (prom-client's Node metrics).
    const metrics = await (await fetch(`${daemon.url}/metrics`)).text();
    const gauge = (name: string) =>
      Number(
        /^(\S+) ([0-9.e+]+)$/m.exec(
          metrics
            .split('\n')
            .filter((l) => l.startsWith(`${name} `))
            .join('\n'),
        )?.[2] ?? NaN,
      ) /
      2 ** 20;
    console.log(
      `  of which: V8 heap used ${gauge('nodejs_heap_size_used_bytes').toFixed(0)} MB of ${gauge('nodejs_heap_size_total_bytes').toFixed(0)} MB, ` +
        `external ${gauge('nodejs_external_memory_bytes').toFixed(0)} MB (native: LiteSVM's accounts, better-sqlite3, buffers)`,
    );
  } finally {
    daemon.child.kill('SIGINT');
    await daemon.exited;
  }
}
