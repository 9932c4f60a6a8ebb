/**
 * Answers of the read-only connection's precompiled reads (read-connection.ts, precompiled.ts),
 * kept while no connection has committed to the file since they were read: this process's main
 * connection or another process's. The reader itself never writes, so no commit means the kept
 * rows are exactly what the statement would return now (issue 31: the one-row hot reads cost a
 * read transaction each). A commit is told by the wal-index header (wal-index-watch.ts: one read
 * of the shm file), or where that cannot be used by SQLite's `pragma data_version` on the reader
 * (a read transaction: about twice the cost).
 *
 * The version is looked at before the statement runs. A commit landing between the two leaves
 * rows newer than the version they are filed under, never older, and the next call sees the
 * version move and drops them. Only the root database's reads come here: transactions,
 * PostgreSQL and in-memory SQLite keep their uncached path.
 */
import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { readConnectionOf, walIndexWatchOf } from './read-connection.js';
import type { Database } from './schema.js';

/** Kept answers per connection, all reads together; past this the whole set is dropped. */
export const READ_ANSWERS_MAX = 10_000;

interface Answers {
  /** True when a commit may have happened since the previous call (the first call: true). */
  moved: () => boolean;
  byQuery: Map<object, Map<string, unknown>>;
  size: number;
}

const answersOf = new WeakMap<SQLite.Database, Answers>();

/** `pragma data_version`, for a reader without a wal-index watch. */
function pragmaMoved(reader: SQLite.Database): () => boolean {
  const version = reader.prepare('pragma data_version').pluck();
  let seen: unknown;
  return () => {
    const now = version.get();
    if (now === seen) return false;
    seen = now;
    return true;
  };
}

function answers(reader: SQLite.Database): Answers {
  let kept = answersOf.get(reader);
  if (!kept) {
    const watch = walIndexWatchOf(reader);
    kept = { moved: watch ? () => watch.moved() : pragmaMoved(reader), byQuery: new Map(), size: 0 };
    answersOf.set(reader, kept);
  }
  if (kept.moved()) {
    kept.byQuery.clear();
    kept.size = 0;
  }
  return kept;
}

/**
 * A key for one call's values, each tagged with its type: null never meets the text 'null', nor
 * 1n the number 1, and bytes are written as hex (as text, two different byte strings could decode
 * to the same replacement characters).
 */
const keyOf = (parameters: readonly unknown[]): string =>
  parameters.map((p) => (Buffer.isBuffer(p) ? `b${p.toString('hex')}` : `${typeof p}${p === null ? '' : String(p)}`)).join('\u0000');

/**
 * The rows of `statement` with `parameters` on `reader`: the kept ones while no connection has
 * committed since they were read, else read now and kept. Each caller gets its own row objects
 * (shallow copies), so a caller that changes a row cannot change another caller's answer.
 */
export function readAnswer<R>(reader: SQLite.Database, query: object, statement: SQLite.Statement, parameters: readonly unknown[]): R[] {
  const kept = answers(reader);
  let byKey = kept.byQuery.get(query);
  if (!byKey) kept.byQuery.set(query, (byKey = new Map()));
  const key = keyOf(parameters);
  let rows = byKey.get(key) as readonly object[] | undefined;
  if (!rows) {
    rows = statement.all(parameters as unknown[]) as object[];
    if (kept.size >= READ_ANSWERS_MAX) {
      kept.byQuery.clear();
      kept.byQuery.set(query, byKey);
      byKey.clear();
      kept.size = 0;
    }
    byKey.set(key, rows);
    kept.size++;
  }
  return rows.map((row) => ({ ...row })) as R[];
}

/**
 * The values `owner` keeps under the version read now (a route's serialized answers, issue 31):
 * emptied, with every read answer, as soon as any connection commits. Fill it only with what was
 * computed from reads on this connection made after this call, so an entry is never older than
 * the version it is filed under; a map held across a commit is simply no longer found.
 */
export function keptFor<T>(reader: SQLite.Database, owner: object): Map<string, T> {
  const kept = answers(reader);
  let values = kept.byQuery.get(owner) as Map<string, T> | undefined;
  if (!values) kept.byQuery.set(owner, (values = new Map<string, T>()));
  if (values.size >= READ_ANSWERS_MAX) values.clear();
  return values;
}

/**
 * `owner`'s kept value under `key` on `db`'s read-only connection, or `make()` kept. For reads
 * whose `make` reads only the index (no chain, no clock): the version is looked at here, before
 * `make` reads, so a value is never older than the version it is filed under; a `make` that
 * throws keeps nothing. Undefined without the read-only connection (PostgreSQL, in-memory
 * SQLite): the caller takes its plain path.
 */
export async function keptIndexValue<T>(db: Kysely<Database>, owner: object, key: string, make: () => Promise<T>): Promise<T | undefined> {
  const reader = readConnectionOf(db);
  if (!reader) return undefined;
  const kept = keptFor<T>(reader, owner);
  let value = kept.get(key);
  if (value === undefined) kept.set(key, (value = await make()));
  return value;
}
