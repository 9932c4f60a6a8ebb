/**
 * Where the whole daemon's CPU goes per `GET /health`, thread by thread, beside three servers
 * answering the same bytes: bare Fastify and the floor (support/floor-app.ts) in the baselines'
 * process, and buildApp alone wired as the daemon wires it (support/health-server.ts `ours`).
 * The daemon runs as `npm start` runs it (health-procs.ts), with http-table's fixture unless
 * HEALTH_THREADS_WORLD=0. Each round drives every side for `seconds` with autocannon
 * (10 connections), rotating the order, and reads /proc/<pid>/task/<tid>/stat before and after:
 * CPU µs per request of the main thread, each other thread kind (V8's workers are named `node`)
 * and the daemon's child processes (redis-server). Issue 31, twelfth pass.
 *
 *   npx tsx --conditions=pmx-source bench/health-threads.ts [checkout=.] [rounds=3] [seconds=3]
 *
 * HEALTH_THREADS_RATE=6000: a fixed rate (autocannon's overallRate), so every side wakes as often;
 * HEALTH_THREADS_SIDES=ours,app: only those; DAEMON_NODE_ARGS / APP_NODE_ARGS: node flags
 * (`--trace-gc`: the daemon's stdout is DATA_DIR/stdout.log, printed below).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { DaemonProcess } from '../test/daemon/daemon-process.js';
import { children, snapshot, startDaemon } from './health-procs.js';
import type { BareReply } from './support/bare-server.js';
import { cannon, median, rateOf, rotated } from './support/cannon.js';
import { setUp } from './support/daemon-fixture.js';

const [checkout = '.', rounds = '3', seconds = '3'] = process.argv.slice(2);
const RATE = Number(process.env.HEALTH_THREADS_RATE ?? 0);
const SIDES = process.env.HEALTH_THREADS_SIDES?.split(',');
const nodeArgs = (name: string) => process.env[name]?.split(' ').filter(Boolean) ?? [];

async function startBare(reply: BareReply): Promise<{ fastify: string; floor: string; pid: number; close: () => void }> {
  const bare = path.join(import.meta.dirname, 'support/bare-server.ts');
  const child = spawn(process.execPath, ['--conditions=pmx-source', '--import', 'tsx', bare], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.write(`${JSON.stringify({ http: [reply], rpc: [] })}\n`);
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  return { ...(JSON.parse(line) as { fastify: string; floor: string }), pid: child.pid!, close: () => child.stdin.end() };
}

/** buildApp alone, wired as the daemon wires it, answering /health's bytes (Redis at REDIS_URL or :6379). */
async function startApp(body: string): Promise<{ url: string; pid: number; close: () => void }> {
  const server = path.join(import.meta.dirname, 'support/health-server.ts');
  const args = [...nodeArgs('APP_NODE_ARGS'), '--conditions=pmx-source', '--import', 'tsx', server, 'ours', 'listen', body];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  return { url, pid: child.pid!, close: () => child.stdin.end() };
}

const daemon = await startDaemon(path.resolve(checkout), nodeArgs('DAEMON_NODE_ARGS'));
console.log(`daemon pid ${daemon.pid}, data ${daemon.dataDir}`);
if (process.env.HEALTH_THREADS_WORLD !== '0') await setUp(daemon as unknown as DaemonProcess);
const res = await fetch(`${daemon.url}/health`);
const reply: BareReply = { path: '/r0', method: 'GET', status: 200, contentType: res.headers.get('content-type')!, body: await res.text() };
const bare = await startBare(reply);
const app = await startApp(reply.body);
try {
  const pids = { daemon: [daemon.pid, ...children(daemon.pid)], bare: [bare.pid], app: [app.pid] };
  const owner = { ours: 'daemon', bare: 'bare', floor: 'bare', app: 'app' } as const;
  const all = { ours: `${daemon.url}/health`, bare: `${bare.fastify}/r0`, floor: `${bare.floor}/r0`, app: `${app.url}/health` };
  const sides = Object.entries(all).filter(([k]) => !SIDES || SIDES.includes(k)) as Array<[keyof typeof all, string]>;
  const rate = RATE > 0 ? { overallRate: RATE } : {};
  for (const [, url] of sides) await cannon({ url, connections: 10, duration: 1, ...rate });
  type Turn = { rps: number; perReq: Map<string, number> };
  const results = await rotated(
    Number(rounds),
    sides.map(([, url]) => async (): Promise<Turn> => {
      const before = snapshot(pids);
      const r = await cannon({ url, connections: 10, duration: Number(seconds), ...rate });
      const after = snapshot(pids);
      const perReq = new Map<string, number>();
      for (const [k, v] of after) perReq.set(k, (v - (before.get(k) ?? 0)) / r.requests.total);
      return { rps: rateOf(r).rps, perReq };
    }),
  );
  console.log(`${rounds} rounds of ${seconds} s${RATE > 0 ? ` at ${RATE} req/s` : ''}; medians, CPU µs per request`);
  for (const [i, turns] of results.entries()) {
    const [name] = sides[i]!;
    const who = owner[name];
    const keys = [...new Set(turns.flatMap((t) => [...t.perReq.keys()]))].filter((k) => k.startsWith(`${who} `));
    const parts = keys
      .map((k) => [k.slice(who.length + 1), median(turns.map((t) => t.perReq.get(k) ?? 0))] as const)
      .filter(([, v]) => v >= 0.05)
      .sort((a, b) => b[1] - a[1]);
    const rps = turns.map((t) => Math.round(t.rps));
    console.log(`${name}: ${Math.round(median(rps))} req/s (rounds ${rps.join(', ')})`);
    console.log(`  ${parts.map(([k, v]) => `${k} ${v.toFixed(1)}`).join('; ')}`);
  }
  const rpsOf = (name: string) => results[sides.findIndex(([n]) => n === name)]?.map((t) => t.rps);
  const ratio = (a: string, b: string) => {
    const [x, y] = [rpsOf(a), rpsOf(b)];
    return x && y ? `${a}/${b} ${median(x.map((v, j) => v / y[j]!)).toFixed(2)}` : '';
  };
  const pairs: Array<[string, string]> = [
    ['ours', 'bare'],
    ['floor', 'bare'],
    ['ours', 'floor'],
    ['app', 'floor'],
    ['ours', 'app'],
  ];
  console.log(
    pairs
      .map(([a, b]) => ratio(a, b))
      .filter(Boolean)
      .join(', '),
  );
} finally {
  bare.close();
  app.close();
  daemon.stop();
}
