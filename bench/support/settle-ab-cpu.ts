/**
 * A settle transaction and a raw transfer in the embedded ledger, two trees in one process (issue
 * 31, fourteenth pass): the settle-tx-cost world (settle-tx-world.ts) opened once from `other`'s
 * packages and once from this tree's, its rounds and raw transfers alternated ABBA so both see the
 * same machine. Prints CPU µs per settle transaction and per raw transfer, per round and medians.
 *   npx tsx --conditions=pmx-source bench/support/settle-ab-cpu.ts /work/wt-base [rounds]
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { openSettleWorld } from './settle-tx-world.js';

const [otherRoot = '/work/wt-base', roundsArg = '8'] = process.argv.slice(2);
const rounds = Number(roundsArg);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const worlds = [
  await openSettleWorld(resolve(otherRoot), 4 * rounds + 4),
  await openSettleWorld(resolve(import.meta.dirname, '../..'), 4 * rounds + 4),
];
// Warm-up: JIT, caches.
for (const w of worlds) {
  await w.round();
  await w.rawTransfers(100);
}
const settle: number[][] = [[], []];
const raw: number[][] = [[], []];
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? [0, 1, 1, 0] : [1, 0, 0, 1];
  const tx = [0, 0];
  const us = [0, 0];
  const rawUs = [0, 0];
  for (const i of order) {
    const x = await worlds[i]!.round();
    tx[i]! += x.txs;
    us[i]! += x.sendUs;
    rawUs[i]! += (await worlds[i]!.rawTransfers(100)) / 2;
  }
  for (const i of [0, 1]) {
    settle[i]!.push(us[i]! / tx[i]!);
    raw[i]!.push(rawUs[i]!);
  }
  console.log(
    `round ${r + 1}: settle tx ${settle[0]![r]!.toFixed(0)} (other) ${settle[1]![r]!.toFixed(0)} (this) µs; ` +
      `raw ${raw[0]![r]!.toFixed(0)} ${raw[1]![r]!.toFixed(0)} µs; load ${loadavg()[0]!.toFixed(1)}`,
  );
}
const ratio = (xs: number[][]) => +median(xs[1]!.map((x, i) => x / xs[0]![i]!)).toFixed(3);
console.log(
  JSON.stringify({
    other: resolve(otherRoot),
    settleUs: [median(settle[0]!), median(settle[1]!)].map((x) => +x.toFixed(0)),
    settleRatio: ratio(settle),
    rawUs: [median(raw[0]!), median(raw[1]!)].map((x) => +x.toFixed(0)),
    rawRatio: ratio(raw),
  }),
);
for (const w of worlds) await w.close();
