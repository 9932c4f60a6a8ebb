/**
 * Two or more whole daemons running at once, `GET /health` driven at each by short turns in
 * rotation: CPU µs per request of each daemon's main thread, its other threads and its children
 * (redis-server), read from /proc. Both daemons live through the same minutes of this shared
 * machine, so the other helpers' load falls on each alike, at the grain of one turn (1 s by
 * default) rather than of one bench run. A fixed rate (`rate`, autocannon's overallRate) keeps the
 * requests per wake-up equal on both sides, so CPU per request compares the work itself; `rate=0`
 * drives each as fast as it answers (then req/s is printed too).
 *
 *   npx tsx --conditions=pmx-source bench/health-daemons-ab.ts <label=checkout[:node args]> <label=checkout…> [rounds=12] [seconds=1] [rate=6000]
 *
 * e.g. `base=/work/wt-base main=.` or `a=. b=.:--max-semi-space-size=64`. Each daemon first gets
 * http-table's fixture (a traded market and a 1,000-market catalog: support/daemon-fixture.ts).
 */
import { cannon, median, rateOf, rotated } from './support/cannon.js';
import { setUp } from './support/daemon-fixture.js';
import type { DaemonProcess } from '../test/daemon/daemon-process.js';
import { children, snapshot, startDaemon, type RunningDaemon } from './health-procs.js';

const args = process.argv.slice(2);
const specs = args.filter((a) => a.includes('='));
const [rounds = '12', seconds = '1', rate = '6000'] = args.filter((a) => !a.includes('='));
if (specs.length < 2)
  throw new Error('usage: health-daemons-ab.ts <label=checkout[:node args]> <label=checkout…> [rounds] [seconds] [rate]');

const daemons: Array<{ label: string; d: RunningDaemon }> = [];
try {
  for (const spec of specs) {
    const [label, rest] = [spec.slice(0, spec.indexOf('=')), spec.slice(spec.indexOf('=') + 1)];
    const [root, nodeArgs = ''] = rest.split(/:(.*)/s);
    const d = await startDaemon(root!, nodeArgs.split(' ').filter(Boolean));
    daemons.push({ label, d });
    console.log(`${label}: pid ${d.pid}, data ${d.dataDir}`);
    await setUp(d as unknown as DaemonProcess);
  }
  const overallRate = Number(rate) > 0 ? { overallRate: Number(rate) } : {};
  for (const { d } of daemons) await cannon({ url: `${d.url}/health`, connections: 10, duration: 2, ...overallRate });
  type Turn = { rps: number; perReq: Map<string, number> };
  const results = await rotated(
    Number(rounds),
    daemons.map(({ d }) => async (): Promise<Turn> => {
      const pids = { d: [d.pid, ...children(d.pid)] };
      const before = snapshot(pids);
      const r = await cannon({ url: `${d.url}/health`, connections: 10, duration: Number(seconds), ...overallRate });
      const after = snapshot(pids);
      const perReq = new Map<string, number>();
      for (const [k, v] of after) perReq.set(k.slice(2), (v - (before.get(k) ?? 0)) / r.requests.total);
      if (r.non2xx + r.errors + r.timeouts > 0) throw new Error(`${d.url}: failures`);
      return { rps: rateOf(r).rps, perReq };
    }),
  );
  console.log(
    `${rounds} rounds of ${seconds} s per daemon, ${Number(rate) > 0 ? `${rate} req/s` : 'as fast as each answers'}; medians, CPU µs per request`,
  );
  const main = (t: Turn) => (t.perReq.get('main user') ?? 0) + (t.perReq.get('main sys') ?? 0);
  const total = (t: Turn) => [...t.perReq.values()].reduce((s, v) => s + v, 0);
  for (const [i, turns] of results.entries()) {
    const keys = [...new Set(turns.flatMap((t) => [...t.perReq.keys()]))];
    const parts = keys
      .map((k) => [k, median(turns.map((t) => t.perReq.get(k) ?? 0))] as const)
      .filter(([, v]) => v >= 0.05)
      .sort((a, b) => b[1] - a[1]);
    console.log(
      `${daemons[i]!.label}: main thread ${median(turns.map(main)).toFixed(1)} µs (p25 ${quantile(turns.map(main), 0.25).toFixed(1)}), ` +
        `process ${median(turns.map(total)).toFixed(1)} µs, ${Math.round(median(turns.map((t) => t.rps)))} req/s`,
    );
    console.log(`  ${parts.map(([k, v]) => `${k} ${v.toFixed(1)}`).join('; ')}`);
    console.log(`  main per round: ${turns.map((t) => main(t).toFixed(1)).join(' ')}`);
  }
  const first = results[0]!;
  for (const [i, turns] of results.entries()) {
    if (i === 0) continue;
    const ratio = median(turns.map((t, j) => main(t) / main(first[j]!)));
    console.log(
      `${daemons[i]!.label}/${daemons[0]!.label}: main-thread CPU per request ×${ratio.toFixed(3)} (median of the rounds' ratios)`,
    );
  }
} finally {
  for (const { d } of daemons) d.stop();
}

function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}
