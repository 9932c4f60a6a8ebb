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
 *
 * A third side, the floor, is what our write must do at least, in raw better-sqlite3: the same
 * upsert (slot-guarded, 128 rows a statement) with `turnSlice()` before each statement (no turn of
 * the event loop over 5 ms) and the same commit, without Kysely and without the lock-order sort.
 * In a process that runs a daemon (family-b), the yields let the daemon's own work in, and that
 * time counts for ours and the floor as it does in production; raw holds the loop throughout.
 */
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Keypair } from '@solana/web3.js';
import { openSqlite, rebuildableTransaction } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrator.js';
import { upsertTokenAccounts, type TokenAccountRow } from '../../db/repositories/token-accounts.repository.js';
import { turnSlice } from '../../src/infra/time-slice.js';
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

const FLOOR_CHUNK = 128;
const UPSERT = (rows: number) =>
  `INSERT INTO token_accounts (address, mint, owner, amount, slot, updated_at) VALUES ${Array(rows).fill('(?, ?, ?, ?, ?, ?)').join(', ')} ` +
  'ON CONFLICT (address) DO UPDATE SET amount = excluded.amount, owner = excluded.owner, slot = excluded.slot, ' +
  'updated_at = excluded.updated_at WHERE token_accounts.slot <= excluded.slot';

/** The floor: raw better-sqlite3 upserts in chunks, a turn slice before each statement, one transaction. */
async function floorMs(file: string, data: TokenAccountRow[]): Promise<number> {
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  const statements = new Map<number, BetterSqlite3.Statement>();
  const now = new Date().toISOString();
  const ms = await timeMs(async () => {
    db.exec('BEGIN');
    for (let i = 0; i < data.length; i += FLOOR_CHUNK) {
      const chunk = data.slice(i, i + FLOOR_CHUNK);
      let statement = statements.get(chunk.length);
      if (!statement) statements.set(chunk.length, (statement = db.prepare(UPSERT(chunk.length))));
      const parameters: unknown[] = [];
      for (const r of chunk) parameters.push(r.address, r.mint, r.owner, r.amount, r.slot, now);
      const turn = turnSlice();
      if (turn) await turn;
      statement.run(parameters);
    }
    db.exec('COMMIT');
  });
  const count = (db.prepare('SELECT count(*) AS n FROM token_accounts').get() as { n: number }).n;
  db.close();
  if (count !== data.length) throw new Error('indexing bench floor wrote the wrong number of rows');
  return ms;
}

/** One round on fresh databases: milliseconds of each side, `oursFirst` choosing the order (the floor runs last). */
async function round(n: number, oursFirst: boolean): Promise<{ oursMs: number; rawMs: number; floorMs: number }> {
  const dir = tempDir('pmx-bench-index-');
  const ours = openSqlite(path.join(dir, 'ours.db'));
  await migrateToLatest(ours.db);
  for (const file of ['raw.db', 'floor.db']) {
    const handle = openSqlite(path.join(dir, file));
    await migrateToLatest(handle.db);
    await handle.close();
  }
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
  return { oursMs, rawMs, floorMs: await floorMs(path.join(dir, 'floor.db'), data) };
}

/** Rows per second: ours (the repository through Kysely), raw better-sqlite3, and the floor. */
export async function indexingRate(n = 20_000): Promise<{ ours: number; raw: number; floor: number }> {
  const first = await round(n, true);
  const second = await round(n, false);
  const rate = (side: 'oursMs' | 'rawMs' | 'floorMs') => (2 * n) / ((first[side] + second[side]) / 1000);
  return { ours: rate('oursMs'), raw: rate('rawMs'), floor: rate('floorMs') };
}
