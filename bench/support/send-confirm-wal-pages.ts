/**
 * Which tables a group commit's WAL frames belong to (issue 31, send + confirm): a persistent
 * ledger lands 200 groups of `GROUP` signed USDC transfers (warm-up), then, autocheckpoint off,
 * 100 more; each frame's page number is mapped to its table or index through `dbstat`. Prints
 * frames per group, in all and per table.
 *   npx tsx --conditions=pmx-source bench/support/send-confirm-wal-pages.ts
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { fundedLedger } from './send-confirm.js';

const GROUP = Number(process.env.GROUP ?? 4);
const warm = 200 * GROUP;
const groups = 100;
const dir = mkdtempSync(join(tmpdir(), 'wal-pages-'));
const { ledger, txs } = await fundedLedger(dir, warm + groups * GROUP);
const db = (ledger as unknown as { store: { db: Database.Database } }).store.db;
const land = async (from: number, to: number) => {
  for (let i = from; i < to; i += GROUP) {
    await Promise.all(txs.slice(i, i + GROUP).map((raw) => ledger.sendRawTransaction(raw, { groupCommit: true })));
  }
};
await land(0, warm);
await new Promise((r) => setTimeout(r, 200)); // a store that writes its address index later has done so
db.pragma('wal_checkpoint(TRUNCATE)');
db.pragma('wal_autocheckpoint = 0');
await land(warm, warm + groups * GROUP);
const wal = readFileSync(join(dir, 'ledger', 'ledger.sqlite-wal'));
const pageSize = wal.readUInt32BE(8);
const pages = new Map<number, number>();
let frames = 0;
for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize, frames++) {
  const page = wal.readUInt32BE(at);
  pages.set(page, (pages.get(page) ?? 0) + 1);
}
const owner = new Map<number, string>();
for (const r of db.prepare('SELECT name, pageno FROM dbstat').all() as { name: string; pageno: number }[]) owner.set(r.pageno, r.name);
const byTable = new Map<string, number>();
for (const [page, count] of pages) {
  const name = owner.get(page) ?? `page ${page} (free)`;
  byTable.set(name, (byTable.get(name) ?? 0) + count);
}
console.log(`WAL frames per group of ${GROUP}: ${(frames / groups).toFixed(2)}`);
for (const [name, count] of [...byTable].sort((a, b) => b[1] - a[1])) console.log(`  ${name} ${(count / groups).toFixed(2)}`);
await ledger.close();
rmSync(dir, { recursive: true, force: true });
