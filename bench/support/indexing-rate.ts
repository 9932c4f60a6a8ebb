/**
 * Indexing rate: upsertTokenAccounts of `n` token-account rows against raw better-sqlite3
 * prepared inserts of the same rows, each side in one transaction into a fresh migrated database,
 * committed as the full index pass commits (many rows per commit, `rebuildableTransaction`:
 * synchronous=NORMAL, which is also the raw connection's setting in WAL mode).
 *
 * Two rounds, fresh databases and rows each: ours first in one, raw first in the other. Whichever
 * side runs first pays the setup's leftovers (collecting the fresh rows, the disk flushing the
 * migrations): in eight alternating rounds of one build, ours-first rounds gave 0.38–0.99×
 * (median 0.53×), raw-first ones 0.52–1.12× (median 0.78×); the bench had run ours first only.
 * Each side's rate is its rows over its time summed over both rounds.
 */
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Keypair } from '@solana/web3.js';
import { openSqlite, rebuildableTransaction } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrator.js';
import { upsertTokenAccounts, type TokenAccountRow } from '../../db/repositories/token-accounts.repository.js';
import { tempDir } from '../../test/helpers/databases.js';
import { timeMs } from '../stats.js';

function rows(n: number, salt: string): TokenAccountRow[] {
  const mints = Array.from({ length: 20 }, () => Keypair.generate().publicKey.toBase58());
  return Array.from({ length: n }, (_, i) => ({
    address: `${salt}${i.toString().padStart(8, '0')}`.padEnd(44, 'A'),
    mint: mints[i % mints.length]!,
    owner: `owner${i % 5000}`.padEnd(44, 'B'),
    amount: BigInt(1_000_000 + i),
    slot: 1_000n,
  }));
}

/** One round on fresh databases: milliseconds of each side, `oursFirst` choosing the order. */
async function round(n: number, oursFirst: boolean): Promise<{ oursMs: number; rawMs: number }> {
  const dir = tempDir('pmx-bench-index-');
  const ours = openSqlite(path.join(dir, 'ours.db'));
  await migrateToLatest(ours.db);
  const rawHandle = openSqlite(path.join(dir, 'raw.db'));
  await migrateToLatest(rawHandle.db);
  await rawHandle.close();
  const raw = new BetterSqlite3(path.join(dir, 'raw.db'));
  raw.pragma('journal_mode = WAL');
  const data = rows(n, 'x');
  const insert = raw.prepare('INSERT INTO token_accounts (address, mint, owner, amount, slot, updated_at) VALUES (?, ?, ?, ?, ?, ?)');
  const now = new Date().toISOString();
  const runOurs = () => timeMs(() => rebuildableTransaction(ours.db, (trx) => upsertTokenAccounts(trx, data)));
  const runRaw = () =>
    timeMs(async () => raw.transaction(() => data.forEach((r) => insert.run(r.address, r.mint, r.owner, r.amount, r.slot, now)))());
  let oursMs: number;
  let rawMs: number;
  if (oursFirst) {
    oursMs = await runOurs();
    rawMs = await runRaw();
  } else {
    rawMs = await runRaw();
    oursMs = await runOurs();
  }
  const count = (raw.prepare('SELECT count(*) AS n FROM token_accounts').get() as { n: number }).n;
  const oursCount = await ours.db
    .selectFrom('token_accounts')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  if (count !== n || Number(oursCount.n) !== n) throw new Error('indexing bench wrote the wrong number of rows');
  raw.close();
  await ours.close();
  return { oursMs, rawMs };
}

/** Rows per second: ours (the repository through Kysely) and raw better-sqlite3. */
export async function indexingRate(n = 20_000): Promise<{ ours: number; raw: number }> {
  const first = await round(n, true);
  const second = await round(n, false);
  return { ours: (2 * n) / ((first.oursMs + second.oursMs) / 1000), raw: (2 * n) / ((first.rawMs + second.rawMs) / 1000) };
}
