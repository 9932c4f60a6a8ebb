/**
 * A second, read-only better-sqlite3 connection to the same SQLite file, for the API's hot
 * one-statement reads (db/precompiled.ts). Through Kysely, each of those reads took the driver's
 * connection mutex, a sliced async call and the result wrapping: more CPU than SQLite spent on the
 * statement itself (issue 31). On this connection a precompiled read runs its prepared statement
 * directly.
 *
 * Why it is as correct as the Kysely path: in WAL mode a separate connection reads the last
 * committed state, so every write committed before the read began is seen (in this process or
 * another), and it never sees the uncommitted rows of a transaction the main connection holds open
 * (the same connection would). Reads inside a transaction are given the transaction, not the root
 * database, and keep going through it (readConnectionOf answers only for the root). An in-memory
 * database cannot be opened twice, so it has no reader and every read goes through Kysely.
 */
import SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { openWalIndexWatch, type WalIndexWatch } from './wal-index-watch.js';

const readers = new WeakMap<Kysely<Database>, SQLite.Database>();
const watches = new WeakMap<SQLite.Database, WalIndexWatch>();

/** Opens the read-only connection for `db` (the root Kysely over `file`); close it with the database. */
export function openReadConnection(db: Kysely<Database>, file: string): SQLite.Database {
  const reader = new SQLite(file, { readonly: true, fileMustExist: true });
  reader.pragma('busy_timeout = 5000');
  reader.defaultSafeIntegers(true); // as the main connection: every integer comes back as bigint
  readers.set(db, reader);
  const watch = openWalIndexWatch(reader, file);
  if (watch) watches.set(reader, watch);
  return reader;
}

/** The read-only connection of this root database; undefined for a transaction, PostgreSQL or memory. */
export function readConnectionOf(db: Kysely<Database>): SQLite.Database | undefined {
  return readers.get(db);
}

/** How read-answers.ts tells that a commit happened, when the file allows it (wal-index-watch.ts). */
export function walIndexWatchOf(reader: SQLite.Database): WalIndexWatch | undefined {
  return watches.get(reader);
}

/**
 * Closes the read-only connection, first, before the main one: reads then go through Kysely, and
 * the main connection closes last, which is what checkpoints the WAL into the database file and
 * removes it (a read-only connection closing last cannot). Call what it returns once the main
 * connection is closed too: the watch's descriptor may only be closed then (wal-index-watch.ts).
 */
export function closeReadConnection(db: Kysely<Database>): () => void {
  const reader = readers.get(db);
  readers.delete(db);
  reader?.close();
  const watch = reader && watches.get(reader);
  return () => watch?.release();
}
