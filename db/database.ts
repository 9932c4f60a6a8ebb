/**
 * Opens the system-of-record database: SQLite through better-sqlite3 by default, PostgreSQL when
 * DATABASE_URL is postgres://…, both behind the same Kysely<Database>.
 *
 * SQLite runs in WAL mode with synchronous=FULL: every acknowledged write (a verified payment, a
 * queued payout) must survive power loss, not only a process crash, and FULL costs one fsync per
 * commit of the WAL, which the daemon's write rate affords (see docs/operations.md).
 *
 * Integers that carry money are bigint end to end: SQLite returns every integer as bigint
 * (safeIntegers) and PostgreSQL's int8 is parsed to bigint; repositories convert small integers
 * with the helpers in `codec.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Where it lives, without credentials (for logs). */
  location: string;
  close(): Promise<void>;
}

/**
 * int8 → bigint for this pool only: `pg.types.setTypeParser` would change every pg client of the
 * process at import time (a side effect the composition root does not choose).
 */
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? (value: string) => BigInt(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export function openSqlite(file: string): DatabaseHandle {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.defaultSafeIntegers(true);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', location: file, close: () => db.destroy() };
}

export function openPostgres(url: string, poolSize = 10): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: pgTypes });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const safe = new URL(url);
  safe.password = '';
  return { db, dialect: 'postgres', location: safe.toString(), close: () => db.destroy() };
}

/** DATABASE_URL unset → SQLite at DATA_DIR/pmx.db; sqlite:///path → that file; postgres:// → PostgreSQL. */
export function openDatabase(databaseUrl: string | undefined, dataDir: string): DatabaseHandle {
  if (databaseUrl === undefined) return openSqlite(path.join(dataDir, 'pmx.db'));
  if (databaseUrl.startsWith('sqlite:')) return openSqlite(databaseUrl.replace(/^sqlite:(\/\/)?/, ''));
  return openPostgres(databaseUrl);
}
