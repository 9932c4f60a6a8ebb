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
import { Kysely, PostgresAdapter, PostgresDialect, sql, type SqliteDatabase, type Transaction } from 'kysely';
import { closeReadConnection, openReadConnection } from './read-connection.js';
import { SlicedSqliteDialect } from './sliced-sqlite-dialect.js';
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
    oid === pg.types.builtins.INT8
      ? (value: string) => BigInt(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Prepared statements kept per connection; the daemon's queries are a few hundred distinct texts. */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 as Kysely's SQLite driver sees it, with prepared statements reused by SQL text:
 * Kysely asks `prepare` for every query, and compiling the same SQL again was 6–12 % of a read's
 * CPU (issue 15). Bounded, least recently used first out (lists of varying length make distinct
 * texts). A statement still being iterated (a streamed query) is busy and cannot be rebound, so
 * such a caller gets a fresh one. Schema changes need nothing here: SQLite recompiles a cached
 * statement whose schema has changed on its next step.
 */
export function withStatementCache(sqlite: SQLite.Database, limit = STATEMENT_CACHE_SIZE): SqliteDatabase & { cachedStatements(): number } {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(text: string) {
      const cached = cache.get(text);
      if (cached && !cached.busy) {
        cache.delete(text); // re-inserted last: the Map's order is the recency order
        cache.set(text, cached);
        return cached;
      }
      const statement = sqlite.prepare(text);
      if (!cached) {
        if (cache.size >= limit) cache.delete(cache.keys().next().value!);
        cache.set(text, statement);
      }
      return statement;
    },
    close() {
      cache.clear();
      sqlite.close();
    },
    cachedStatements: () => cache.size,
  };
}

export function openSqlite(file: string): DatabaseHandle {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.defaultSafeIntegers(true);
  const db = new Kysely<Database>({ dialect: new SlicedSqliteDialect({ database: withStatementCache(sqlite) }) });
  // The hot reads' own read-only connection (read-connection.ts); a memory database has one connection only.
  if (file !== ':memory:') openReadConnection(db, file);
  const close = async () => {
    const readerClosed = closeReadConnection(db);
    await db.destroy();
    readerClosed(); // after the main connection: see read-connection.ts
  };
  return { db, dialect: 'sqlite', location: file, close };
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

/**
 * Runs `fn` in a transaction whose commit does not wait for the disk: for rows rebuilt from
 * elsewhere whenever lost (the chain index: the next full pass restores them). The daemon's
 * durability (synchronous=FULL, one fsync per commit) is for what only the database knows; an
 * index commit's fsync blocked the event loop 30-240 ms on a busy disk, far past /health's 50 ms.
 * SQLite: this transaction commits with synchronous=NORMAL (WAL: durable across a crash, not
 * across a power loss), on a connection held for the whole call so that no other transaction
 * can commit at that level meanwhile; FULL is set back before the connection is released.
 * PostgreSQL: synchronous_commit off for this transaction only.
 */
export async function rebuildableTransaction<T>(db: Kysely<Database>, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    return db.transaction().execute(async (trx) => {
      await sql`set local synchronous_commit to off`.execute(trx);
      return fn(trx);
    });
  }
  return db.connection().execute(async (conn) => {
    await sql`pragma synchronous = NORMAL`.execute(conn);
    try {
      return await conn.transaction().execute(fn);
    } finally {
      await sql`pragma synchronous = FULL`.execute(conn);
    }
  });
}
