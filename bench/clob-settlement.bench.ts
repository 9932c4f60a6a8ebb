/**
 * Issue 13's settlement bench, in one process on the embedded cluster: fills settled per second
 * by the keeper (planning, lookup tables, persisted outbound transactions, receipts, holds and
 * positions) against raw SPL token transfers per second sent and confirmed on the same ledger
 * in the same leg (goal ≥ 0.5×, issue 31), with every fill waiting when the keeper starts (after a
 * warm-up fill per trader: the market's lookup table already lists them); and the time from match
 * to `settled` (p50/p99) of fills matched while the keeper runs. Each leg (support/settle-leg.ts)
 * prints the ledger's share of the drain, the fills/s the keeper would reach if its own work were
 * free, and this process's CPU in the drain per fill (the figure that moves least with a shared
 * machine's load).
 *
 * Both databases (issue 31: PostgreSQL ≥ 0.8× SQLite, no deadlock), each leg on a daemon and a
 * database of its own. The legs alternate (`BENCH_SETTLE_ORDER`, default `sqlite,postgres,postgres,sqlite`):
 * run back to back in one order, the second leg read 0.63–0.77× of the first whichever it was
 * (docs/performance.md, "Issue 31, twelfth pass"); alternated, each database has a first and a
 * later leg, and the rows are the medians of each database's legs, every ratio against the raw
 * baseline measured in its own leg. For PostgreSQL the bench prints the deadlocks the server
 * counted in each leg's database and the daemon's log lines that name one (summed).
 * `BENCH_SETTLE_FILLS` (default 480) sets how many fills; `BENCH_SETTLE_DB` (`sqlite`,
 * `postgres`) keeps only that database's legs of the order. `BENCH_SETTLE_WINDOW=1` (or `--cpu-prof`)
 * prints each drain's window, the drain's GCs and every window its event loop was held over 40 ms
 * (support/loop-stalls.ts; support/profile-window.ts says what a profile shows in one).
 * `BENCH_SETTLE_ALLOCATIONS=1` prints the bytes each drain allocated by site (support/allocation-profile.ts).
 */
import { formatMs, percentile } from './stats.js';
import { freshPostgresDatabase } from './support/bench-postgres.js';
import { emitRow, ownMemory } from './support/bench-rows.js';
import { settleLeg, type LegResult } from './support/settle-leg.js';

const FILLS = Number(process.env.BENCH_SETTLE_FILLS ?? 480);

type Db = 'sqlite' | 'postgres';
const NAME: Record<Db, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/** The legs to run, in order: BENCH_SETTLE_ORDER, less the database BENCH_SETTLE_DB leaves out. */
function legOrder(): Db[] {
  const order = (process.env.BENCH_SETTLE_ORDER ?? 'sqlite,postgres,postgres,sqlite').split(',').map((s) => s.trim());
  for (const db of order) if (db !== 'sqlite' && db !== 'postgres') throw new Error(`BENCH_SETTLE_ORDER: unknown database ${db}`);
  const only = process.env.BENCH_SETTLE_DB;
  const kept = (order as Db[]).filter((db) => !only || only === 'both' || db === only);
  // One database asked for: its legs of the order (at least one).
  return kept.length > 0 ? kept : [only as Db];
}

export async function run(): Promise<void> {
  const legs: Array<{ db: Db; result: LegResult }> = [];
  let deadlocks = 0;
  for (const [i, db] of legOrder().entries()) {
    // The match → settled latency once per database (its first leg): it adds a second backlog's time.
    const latency = !legs.some((l) => l.db === db);
    console.log(`  leg ${i + 1}, ${NAME[db]}:`);
    if (db === 'sqlite') {
      legs.push({ db, result: await settleLeg({}, { fills: FILLS, latency }) });
      continue;
    }
    const database = await freshPostgresDatabase(`settle${i}`);
    try {
      const result = await settleLeg({ DATABASE_URL: database.url }, { fills: FILLS, latency });
      const counted = await database.deadlocks();
      console.log(`    deadlocks: ${counted} counted by PostgreSQL (pg_stat_database), ${result.deadlockLines} in the daemon's log`);
      deadlocks += counted + result.deadlockLines;
      legs.push({ db, result });
    } finally {
      await database.drop();
    }
  }
  summarize(legs, deadlocks);
}

const median = (values: number[]) => percentile(values, 50);

function summarize(legs: Array<{ db: Db; result: LegResult }>, deadlocks: number): void {
  const memory = ownMemory();
  const fillsPerSec: Partial<Record<Db, number>> = {};
  console.log(`  medians over each database's legs (every ratio against the raw baseline of its own leg):`);
  for (const db of ['sqlite', 'postgres'] as const) {
    const of = legs.filter((l) => l.db === db).map((l) => l.result);
    if (of.length === 0) continue;
    const list = (f: (r: LegResult) => number, digits = 0) => of.map((r) => f(r).toFixed(digits)).join(', ');
    const ratio = median(of.map((r) => r.fillsPerSec / r.transfersPerSec));
    const p99 = median(of.map((r) => r.healthP99Ms));
    fillsPerSec[db] = median(of.map((r) => r.fillsPerSec));
    console.log(
      `    ${NAME[db]}: ${ratio.toFixed(2)}× raw (legs ${list((r) => r.fillsPerSec / r.transfersPerSec, 2)}), ` +
        `${fillsPerSec[db].toFixed(0)} fills/s (${list((r) => r.fillsPerSec)}), ` +
        `CPU ${median(of.map((r) => r.cpuUsPerFill)).toFixed(0)} µs a fill (${list((r) => r.cpuUsPerFill)}; ` +
        `less the idle rate ${median(of.map((r) => r.netCpuUsPerFill)).toFixed(0)}: ${list((r) => r.netCpuUsPerFill)}), ` +
        `/health p99 ${formatMs(p99)} (${of.map((r) => formatMs(r.healthP99Ms)).join(', ')})`,
    );
    emitRow({
      bench: 'clob-settlement',
      row: `settlement of ${FILLS} waiting fills vs raw SPL transfers, ${NAME[db]} (median of ${of.length})`,
      value: `${ratio.toFixed(2)}× (${fillsPerSec[db].toFixed(0)} fills/s)`,
      goal: '≥ 0.5×',
      met: ratio >= 0.5,
      ...memory,
    });
    emitRow({
      bench: 'clob-settlement',
      row: `/health p99 during the drain (one process), ${NAME[db]} (median of ${of.length})`,
      value: formatMs(p99),
      goal: '≤ 50 ms',
      met: p99 <= 50,
      ...memory,
    });
  }
  if (legs.some((l) => l.db === 'postgres')) {
    console.log(`    deadlocks: ${deadlocks} in all PostgreSQL legs (server and log; goal 0)`);
    emitRow({ bench: 'clob-settlement', row: 'deadlocks while settling', value: String(deadlocks), goal: '0', met: deadlocks === 0 });
  }
  if (fillsPerSec.sqlite === undefined || fillsPerSec.postgres === undefined) return;
  const ratio = fillsPerSec.postgres / fillsPerSec.sqlite;
  console.log(
    `  PostgreSQL / SQLite: ${ratio.toFixed(2)}× (medians ${fillsPerSec.postgres.toFixed(0)} vs ${fillsPerSec.sqlite.toFixed(0)} fills/s; goal ≥ 0.8×)`,
  );
  emitRow({
    bench: 'clob-settlement',
    row: 'settlement PostgreSQL / SQLite',
    value: `${ratio.toFixed(2)}×`,
    goal: '≥ 0.8×',
    met: ratio >= 0.8,
  });
}
