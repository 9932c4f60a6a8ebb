/**
 * Answers of the read-only connection's precompiled reads (read-connection.ts, precompiled.ts),
 * kept while SQLite's `pragma data_version` on that connection stands. The pragma's value changes
 * whenever any other connection commits to the file: this process's main connection or another
 * process's. The reader itself never writes, so an unchanged value means no commit of any kind
 * since the answer was read, and the kept rows are exactly what the statement would return now
 * (issue 31: the one-row hot reads cost a read transaction each; the pragma costs about half).
 *
 * The pragma is read before the statement runs. A commit landing between the two leaves rows
 * newer than the version they are filed under, never older, and the next call sees the version
 * move and drops them. Only the root database's reads come here: transactions, PostgreSQL and
 * in-memory SQLite keep their uncached path.
 */
import type SQLite from 'better-sqlite3';

/** Kept answers per connection, all reads together; past this the whole set is dropped. */
export const READ_ANSWERS_MAX = 10_000;

interface Answers {
  version: SQLite.Statement;
  seen: unknown;
  byQuery: Map<object, Map<string, unknown>>;
  size: number;
}

const answersOf = new WeakMap<SQLite.Database, Answers>();

function answers(reader: SQLite.Database): Answers {
  let kept = answersOf.get(reader);
  if (!kept) {
    kept = { version: reader.prepare('pragma data_version').pluck(), seen: undefined, byQuery: new Map(), size: 0 };
    answersOf.set(reader, kept);
  }
  const now = kept.version.get();
  if (now !== kept.seen) {
    kept.seen = now;
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
