/**
 * A settle transaction's CPU in the embedded ledger against a raw SPL transfer's, same process,
 * same ledger (issue 31's settlement row, without the daemon around it): rounds of the drain's
 * shape (bench/support/settle-tx-world.ts) landed through `sendRawTransaction` on an in-memory
 * ledger, between raw transfers. Prints CPU µs per settle transaction, per fill, per raw
 * transfer, the keeper's assembly per transaction, and the fills/s ceiling they imply against
 * raw transfers (raw µs / fill µs: what the ratio would be with everything else free).
 *
 *   BENCH_TREE=/other/tree   run that tree's packages with this bench (A/B against a baseline)
 *   BENCH_SETTLE_ROUNDS=n    rounds of 24 fills per measure (default 12); BENCH_SETTLE_REPEATS (3)
 */
import path from 'node:path';
import { openSettleWorld } from './support/settle-tx-world.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(): Promise<void> {
  const root = path.resolve(process.env.BENCH_TREE ?? path.join(import.meta.dirname, '..'));
  const rounds = Number(process.env.BENCH_SETTLE_ROUNDS ?? 12);
  const repeats = Number(process.env.BENCH_SETTLE_REPEATS ?? 3);
  const world = await openSettleWorld(root, rounds * repeats + 2);
  try {
    // Warm both paths (JIT, caches) before measuring.
    await world.round();
    await world.rawTransfers(200);
    const rows: { tx: number; fill: number; asm: number; raw: number; fillsPerTx: number }[] = [];
    for (let r = 0; r < repeats; r++) {
      const raw = [await world.rawTransfers(300)];
      let txs = 0;
      let fills = 0;
      let sendUs = 0;
      let asmUs = 0;
      for (let i = 0; i < rounds; i++) {
        const x = await world.round();
        txs += x.txs;
        fills += x.fills;
        sendUs += x.sendUs;
        asmUs += x.assemblyUs;
      }
      raw.push(await world.rawTransfers(300));
      const rawUs = (raw[0]! + raw[1]!) / 2;
      rows.push({ tx: sendUs / txs, fill: sendUs / fills, asm: asmUs / txs, raw: rawUs, fillsPerTx: fills / txs });
      const last = rows.at(-1)!;
      console.log(
        `  ${r + 1}: ${txs} settle txs (${last.fillsPerTx.toFixed(2)} fills each): ${last.tx.toFixed(0)} µs a tx in the ledger, ` +
          `${last.fill.toFixed(0)} µs a fill; assembly ${last.asm.toFixed(0)} µs a tx; raw transfer ${last.raw.toFixed(0)} µs ` +
          `→ a settle tx = ${(last.tx / last.raw).toFixed(2)} raw, ceiling ${(last.raw / last.fill).toFixed(2)}× raw`,
      );
    }
    const tx = median(rows.map((r) => r.tx));
    const fill = median(rows.map((r) => r.fill));
    const raw = median(rows.map((r) => r.raw));
    console.log(
      `  tree ${root}, load ${(await import('node:os')).loadavg()[0]!.toFixed(1)}: median ${tx.toFixed(0)} µs a settle tx, ${fill.toFixed(0)} µs a fill, ` +
        `assembly ${median(rows.map((r) => r.asm)).toFixed(0)} µs a tx, raw ${raw.toFixed(0)} µs → ${(tx / raw).toFixed(2)} raw a tx, ceiling ${(raw / fill).toFixed(2)}× raw`,
    );
  } finally {
    await world.close();
  }
}
