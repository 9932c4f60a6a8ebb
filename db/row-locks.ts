/**
 * Row locks in one order, for PostgreSQL (SQLite runs one writer at a time and needs none).
 * Two transactions that lock overlapping rows in different orders deadlock; a multi-row UPDATE
 * locks in whatever order its plan reads (an index scan: key order; a bitmap scan: table order),
 * so a writer of several rows of a shared table first locks them all here, sorted by key in
 * code-point order (the same order JavaScript's sort gives, whatever the database's collation),
 * chunk after chunk. Tables are taken in one order too (docs/performance.md, "Lock order").
 */
import { PostgresAdapter, sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.js';

export function isPostgresDb(db: Kysely<Database> | Transaction<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Distinct keys in code-point order (the lock order of every table keyed by text). */
export function lockOrder(keys: Iterable<string>): string[] {
  return [...new Set(keys)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

const CHUNK = 1000;

/**
 * Locks these fills until the transaction ends, in id order (`FOR NO KEY UPDATE`: what an UPDATE
 * of them takes anyway, so foreign-key checks are not blocked). Every transaction that writes
 * more than one fill calls this first, before any other fill write and before the holds.
 */
export async function lockFills(trx: Transaction<Database>, ids: Iterable<string>): Promise<void> {
  if (!isPostgresDb(trx)) return;
  const sorted = lockOrder(ids);
  for (let i = 0; i < sorted.length; i += CHUNK)
    await trx
      .selectFrom('clob_fills')
      .select('id')
      .where('id', 'in', sorted.slice(i, i + CHUNK))
      .orderBy(sql`id collate "C"`)
      .forNoKeyUpdate()
      .execute();
}
