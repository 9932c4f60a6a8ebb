/**
 * The ledger alone, in one process (issue 31, send + confirm): `N` signed USDC transfers landed
 * through `sendRawTransaction` with group commit, `GROUP` per turn, on a persistent ledger (WAL,
 * synchronous=NORMAL, as the daemon's). Prints CPU µs per transaction (signing excluded) and the
 * WAL bytes written. Run with `--cpu-prof` for a profile.
 *   npx tsx --conditions=pmx-source bench/support/send-confirm-ledger-cpu.ts [n] [group]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fundedLedger } from './send-confirm.js';

const n = Number(process.argv[2] ?? 3000);
const group = Number(process.argv[3] ?? 10);
const dir = mkdtempSync(join(tmpdir(), 'ledger-cpu-'));
const { ledger, txs } = await fundedLedger(dir, n);
const wal = join(dir, 'ledger', 'ledger.sqlite-wal');
// FRAMES=1: no automatic checkpoint, so the WAL's growth counts the frames written (4 KiB pages + 24-byte headers).
if (process.env.FRAMES) (ledger as unknown as { store: { db: { pragma(s: string): unknown } } }).store.db.pragma('wal_autocheckpoint = 0');
const walBefore = statSync(wal).size;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < n; i += group) {
  const out = await Promise.all(txs.slice(i, i + group).map((raw) => ledger.sendRawTransaction(raw, { groupCommit: true })));
  if (out.some((r) => r.err !== null)) throw new Error(`failed: ${JSON.stringify(out.find((r) => r.err !== null))}`);
}
const cpu = process.cpuUsage(cpu0);
const ms = performance.now() - t0;
const walAfter = statSync(wal).size;
console.log(
  JSON.stringify({
    n,
    group,
    cpuUsPerTx: +((cpu.user + cpu.system) / n).toFixed(1),
    wallUsPerTx: +((ms * 1000) / n).toFixed(1),
    ...(process.env.FRAMES ? { walFramesPerGroup: +(((walAfter - walBefore) / 4120 / n) * group).toFixed(1) } : {}),
  }),
);
await ledger.close();
rmSync(dir, { recursive: true, force: true });
