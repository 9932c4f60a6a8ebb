/**
 * `npm run bench` runs every bench/*.bench.ts that exports `run()`; `npm run bench -- queue amm`
 * runs only those named (`queue`, `queue.bench.ts` and `bench/queue.bench.ts` all name the same
 * file). Each bench prints its own lines; a bench that throws is reported and the exit code is 1.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const DIR = import.meta.dirname;
const SUFFIX = '.bench.ts';

const available = fs
  .readdirSync(DIR)
  .filter((file) => file.endsWith(SUFFIX))
  .map((file) => file.slice(0, -SUFFIX.length))
  .sort();

const requested = process.argv.slice(2).map((arg) =>
  path
    .basename(arg)
    .replace(/\.bench(\.ts)?$/, '')
    .replace(/\.ts$/, ''),
);
const unknown = requested.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`unknown bench(es): ${unknown.join(', ')}; available: ${available.join(', ')}`);
  process.exit(2);
}

let failed = 0;
for (const name of requested.length > 0 ? requested : available) {
  const started = performance.now();
  try {
    const module = (await import(pathToFileURL(path.join(DIR, `${name}${SUFFIX}`)).href)) as { run?: () => Promise<unknown> };
    if (typeof module.run !== 'function') {
      console.log(`[${name}] skipped: exports no run()`);
      continue;
    }
    console.log(`[${name}]`);
    await module.run();
    console.log(`[${name}] done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } catch (error) {
    failed++;
    console.error(`[${name}] FAILED: ${(error as Error).stack ?? String(error)}`);
  }
}
process.exit(failed > 0 ? 1 : 0);
