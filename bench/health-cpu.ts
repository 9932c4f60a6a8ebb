/**
 * CPU per `GET /health` request in the server's own process, for ours (buildApp), the floor
 * (support/floor-app.ts) and bare Fastify, measured by turns (each round runs every side once, the
 * order rotated per round) under the same autocannon load (10 connections). CPU per request
 * (from /proc, the server process only) moves much less with the machine's other load than
 * requests per second do, so it compares builds on a shared machine where http-table's ratios
 * swing by ±0.2.
 *
 *   npx tsx --conditions=pmx-source bench/health-cpu.ts [rounds=5] [seconds=3] [other checkout…]
 *
 * Each extra argument is another checkout of this project (with this file in it) whose `ours` is
 * measured as a side of its own, e.g. the commit before a change: alternated A/B.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { cannon, median, rateOf } from './support/cannon.js';
import { startCpuWindow } from './support/cpu-accounting.js';

const [rounds = '5', seconds = '3', ...others] = process.argv.slice(2);
const ROOT = path.resolve(import.meta.dirname, '..');

interface Side {
  name: string;
  url: string;
  pid: number;
  stop(): void;
}

async function start(name: string, root: string, mode: string, body: string, env: Record<string, string> = {}): Promise<Side> {
  const child = spawn(
    process.execPath,
    ['--conditions=pmx-source', '--import', 'tsx', 'bench/support/health-server.ts', mode, 'listen', body],
    {
      cwd: root,
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  return { name, url, pid: child.pid!, stop: () => child.stdin!.end() };
}

async function load(side: Side, secs: number): Promise<{ rps: number; cpuUs: number }> {
  const window = startCpuWindow([{ name: side.name, pid: side.pid }]);
  const r = rateOf(await cannon({ url: `${side.url}/health`, connections: 10, duration: secs }));
  if (r.failures > 0) throw new Error(`${side.name}: ${r.failures} failures`);
  const cpu = window.end(r.rps * secs).perUnitUs.get(side.name)!;
  return { rps: r.rps, cpuUs: cpu ?? NaN };
}

const sides: Side[] = [await start('ours', ROOT, 'ours', '')];
const body = await (await fetch(`${sides[0]!.url}/health`)).text();
for (const [i, other] of others.entries()) {
  // `+NAME=value`: ours again with that environment (a switch for an experiment); else a checkout.
  if (other.startsWith('+')) {
    const [k, v = '1'] = other.slice(1).split('=');
    sides.push(await start(other.slice(1), ROOT, 'ours', '', { [k!]: v }));
  } else sides.push(await start(`other${i + 1}`, path.resolve(other), 'ours', ''));
}
sides.push(await start('floor', ROOT, 'floor', body), await start('bare', ROOT, 'bare', body));
try {
  for (const side of sides) await load(side, 1); // warm-up: JIT, connections
  const results = new Map<string, Array<{ rps: number; cpuUs: number }>>(sides.map((s) => [s.name, []]));
  for (let round = 0; round < Number(rounds); round++) {
    const order = sides.map((_, i) => sides[(i + round) % sides.length]!);
    for (const side of order) results.get(side.name)!.push(await load(side, Number(seconds)));
    if (process.env.VERBOSE)
      console.log(`round ${round + 1}: ${order.map((s) => `${s.name} ${results.get(s.name)!.at(-1)!.cpuUs.toFixed(1)} µs`).join(', ')}`);
  }
  const bareSorted = results
    .get('bare')!
    .map((r) => r.cpuUs)
    .sort((a, b) => a - b);
  const bareUs = median(bareSorted);
  const bareLow = bareSorted[Math.floor(bareSorted.length / 4)]!;
  for (const side of sides) {
    const rs = results.get(side.name)!;
    const sorted = rs.map((r) => r.cpuUs).sort((a, b) => a - b);
    const us = median(sorted);
    const low = sorted[Math.floor(sorted.length / 4)]!;
    console.log(
      `${side.name.padEnd(10)} CPU/request min ${sorted[0]!.toFixed(1)}, p25 ${low.toFixed(1)}, median ${us.toFixed(1)} µs; ` +
        `req/s median ${Math.round(median(rs.map((r) => r.rps)))}; bare/this CPU: p25 ${(bareLow / low).toFixed(2)}x, median ${(bareUs / us).toFixed(2)}x`,
    );
  }
} finally {
  for (const side of sides) side.stop();
}
