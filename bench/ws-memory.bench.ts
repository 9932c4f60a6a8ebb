/**
 * Memory per idle Family C WebSocket connection, against a bare `ws` server, in the same run.
 *
 * The servers run in this process, measured after a full GC: the daemon's real HTTP app
 * (`buildApp`, rate limits and hooks included) with the WebSocket routes and the hub, every
 * connection subscribed to a market and holding its book; and a bare `ws` WebSocketServer. A child
 * process opens the connections, so the clients' memory is not counted. Prints the growth of the
 * V8 heap + external memory per connection (RSS is left out: pages freed by the GC make it jump
 * both ways by more than 2,000 connections weigh), and the ratio to the bare server.
 * `BENCH_WS_IDLE` (default 2,000) sets the number of connections. Needs Redis (rate limits).
 */
import { spawn } from 'node:child_process';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { WebSocketServer } from 'ws';
import { buildApp } from '../src/api/app.js';
import { clobWsRoutes } from '../src/api/ws/ws.routes.js';
import { createMetrics } from '../src/infra/metrics.js';
import { WsHub } from '../src/services/family-c/ws/ws-hub.js';
import { deleteKeys, uniquePrefix } from '../test/helpers/redis.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const N = Number(process.env.BENCH_WS_IDLE ?? 2_000);
const MARKET = '11111111-1111-4111-8111-111111111111';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const CLIENTS = `
import { WebSocket } from 'ws';
const [url, n, subscribe] = [process.env.URL, Number(process.env.N), process.env.SUBSCRIBE];
let ready = 0;
for (let i = 0; i < n; i += 100) {
  await Promise.all(Array.from({ length: Math.min(100, n - i) }, () => new Promise((resolve, reject) => {
    const s = new WebSocket(url, { perMessageDeflate: false });
    s.once('open', () => { if (subscribe) s.send(subscribe); else { ready++; resolve(); } });
    s.once('message', () => { if (subscribe) { ready++; resolve(); } });
    s.once('error', reject);
  })));
}
console.log(JSON.stringify({ ready }));
setInterval(() => undefined, 1 << 30);
`;

function usage() {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

/** Opens N connections from a child process and returns this process's growth per connection. */
async function perConnection(url: string, subscribe?: unknown) {
  const before = usage();
  const child = spawn(process.execPath, ['--input-type=module', '-e', CLIENTS], {
    cwd: `${import.meta.dirname}/..`,
    env: { ...process.env, URL: url, N: String(N), SUBSCRIBE: subscribe ? JSON.stringify(subscribe) : '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const ready = await new Promise<number>((resolve, reject) => {
      child.stdout!.once('data', (d: Buffer) => resolve(JSON.parse(d.toString()).ready));
      child.once('exit', (code) => reject(new Error(`clients exited with ${code}`)));
    });
    if (ready !== N) throw new Error(`only ${ready} of ${N} connections became ready`);
    await new Promise((r) => setTimeout(r, 500));
    const after = usage();
    return (after - before) / 1024 / N;
  } finally {
    child.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function daemonApp(prefix: string): Promise<{ app: FastifyInstance; url: string; redis: Redis }> {
  const redis = new Redis(REDIS_URL);
  const book = JSON.stringify({
    event: 'book',
    seq: 0,
    status: 'active',
    marketId: MARKET,
    yes: { bids: [], asks: [] },
    no: { bids: [], asks: [] },
  });
  const hub: WsHub = new WsHub(
    {
      resolveMarkets: async (refs) => refs.map(() => MARKET),
      readBook: (m, t) => setImmediate(() => hub.bookArrived(m, t, { seq: 0, frame: book })),
      now: Date.now,
      warn: () => undefined,
    },
    { idleTimeoutMs: 600_000, maxBufferedBytes: 1 << 20 },
  );
  const app = await buildApp({
    log: pino({ level: 'silent' }),
    version: 'bench',
    redis,
    metrics: createMetrics(),
    adminToken: 'bench-admin-token-0123456789',
    rateLimit: { readPerMinute: 1_000_000, writePerMinute: 1_000_000, nameSpace: prefix },
    dashboardQueues: [],
    readiness: async () => ({}),
    routes: [clobWsRoutes(hub)],
    maxConnectionsPerClient: 0,
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `${url.replace('http', 'ws')}/v2/ws/market`, redis };
}

export async function run(): Promise<void> {
  const prefix = uniquePrefix('bench-ws-mem');
  const { app, url, redis } = await daemonApp(prefix);
  const bare = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => bare.once('listening', r));
  try {
    await perConnection(url, { type: 'subscribe', markets: [MARKET] }); // warm-up: code paths compiled, pools sized
    const ours = await perConnection(url, { type: 'subscribe', markets: [MARKET] });
    const base = await perConnection(`ws://127.0.0.1:${(bare.address() as { port: number }).port}`);
    console.log(`  memory per idle connection, ${N} connections opened by a child process, after a full GC:`);
    console.log(`    pmx (app + hub, subscribed, book received): ${ours.toFixed(2)} KB of V8 heap + external`);
    console.log(`    bare ws server:                             ${base.toFixed(2)} KB`);
    console.log(
      `    ratio pmx ÷ bare: ${(ours / base).toFixed(2)}× (the rest is Fastify's request/reply kept by @fastify/websocket, the hub's connection record)`,
    );
  } finally {
    bare.close();
    await app.close();
    redis.disconnect();
    await deleteKeys(prefix);
  }
}
