/**
 * Issue 31's scale run, `npm run bench -- scale`: the orderbook at the sizes the issue names, on
 * SQLite and on PostgreSQL, each part in a child process of its own (so one part's heap never
 * weighs on the next), and one table at the end built from the rows the parts print (see
 * support/bench-rows.ts), each with the memory of the process that held the daemon.
 * - `clob-wide-book`: placement into 20,000 resting orders over ~12,500 levels vs over 40.
 * - `clob-markets-scale`: 500 markets (BENCH_SCALE_MARKETS), memory per market and restart reclaim.
 * - `clob-settlement`: a 2,000-fill backlog (BENCH_SETTLE_FILLS), both databases in one run,
 *   with `/health` latency during the drain.
 * `BENCH_SCALE_PARTS=wide,markets,settle` runs only some parts; `BENCH_SCALE_DBS=sqlite` one database.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ROW_PREFIX, type BenchRow } from './support/bench-rows.js';

interface Part {
  key: string;
  bench: string;
  db: string;
  env: Record<string, string>;
}

const list = (name: string, all: string[]) => (process.env[name]?.split(',').map((s) => s.trim()) ?? all).filter((s) => all.includes(s));

function parts(): Part[] {
  const dbs = list('BENCH_SCALE_DBS', ['sqlite', 'postgres']);
  const wanted = list('BENCH_SCALE_PARTS', ['wide', 'markets', 'settle']);
  const out: Part[] = [];
  for (const db of dbs) {
    if (wanted.includes('wide')) out.push({ key: 'wide', bench: 'clob-wide-book', db, env: { BENCH_CLOB_DB: db } });
    if (wanted.includes('markets'))
      out.push({
        key: 'markets',
        bench: 'clob-markets-scale',
        db,
        env: { BENCH_SCALE_DB: db, BENCH_SCALE_MARKETS: process.env.BENCH_SCALE_MARKETS ?? '500' },
      });
  }
  // The settlement bench settles the same backlog on every database it is given, in one run (its ratio needs both).
  if (wanted.includes('settle'))
    out.push({
      key: 'settle',
      bench: 'clob-settlement',
      db: dbs.join('+'),
      env: { BENCH_SETTLE_DB: dbs.length === 2 ? 'both' : dbs[0]!, BENCH_SETTLE_FILLS: process.env.BENCH_SETTLE_FILLS ?? '2000' },
    });
  return out;
}

/** Runs one bench in a child process, echoing its lines; resolves with the rows it printed. */
function runPart(part: Part): Promise<Array<BenchRow & { db: string }>> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--conditions=pmx-source', '--import', 'tsx', path.join(import.meta.dirname, 'run.ts'), part.bench],
    { env: { ...process.env, ...part.env, BENCH_ROWS: '1' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const rows: Array<BenchRow & { db: string }> = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith(ROW_PREFIX)) rows.push({ ...(JSON.parse(line.slice(ROW_PREFIX.length)) as BenchRow), db: part.db });
    else console.log(`  [${part.key} ${part.db}] ${line}`);
  });
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(rows) : reject(new Error(`${part.bench} (${part.db}) exited with ${code}`)))),
  );
}

export async function run(): Promise<void> {
  const rows: Array<BenchRow & { db: string }> = [];
  for (const part of parts()) rows.push(...(await runPart(part)));
  const mb = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '' : `${n.toFixed(0)} MB`);
  console.log('  scale table:');
  console.log(
    `  ${'row'.padEnd(62)} ${'db'.padEnd(15)} ${'value'.padEnd(34)} ${'goal'.padEnd(14)} met  ${'RSS'.padStart(7)} ${'heap'.padStart(7)}`,
  );
  for (const r of rows)
    console.log(
      `  ${r.row.padEnd(62)} ${r.db.padEnd(15)} ${r.value.padEnd(34)} ${r.goal.padEnd(14)} ${(r.met ? 'yes' : 'no').padEnd(4)} ${mb(r.rssMb).padStart(7)} ${mb(r.heapMb).padStart(7)}`,
    );
}
