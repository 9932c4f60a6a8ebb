/**
 * A read built and compiled by Kysely once per database, then run with each call's values. On
 * the API's hot reads (a market by id or slug, a wallet's balances) Kysely spent more CPU building
 * and compiling the same statement than SQLite spent running it (issue 31: 0.2–0.5 ms per
 * request); the SQL text is the same every time, so it is compiled once and only the values change
 * (better-sqlite3 then reuses its prepared statement by that text: withStatementCache). On SQLite a
 * read given the root database runs its prepared statement on the read-only connection, without
 * Kysely's driver around it (read-connection.ts: the driver cost more than the statement), and its
 * answer is kept until any connection commits (read-answers.ts: SQLite's data_version). Compiled
 * queries are kept per database's adapter, so reads inside a transaction reuse them too.
 *
 * The first call's values must come out as the compiled parameters, in order and nothing else (a
 * constant in the query is passed as a value too); when they do not (or two values are equal, so
 * the order cannot be told), that call runs as built and the next call tries again, so a query
 * that folds a value into its text is merely not precompiled, never run with the wrong values.
 */
import type SQLite from 'better-sqlite3';
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { turnSlice } from '../src/infra/time-slice.js';
import { readAnswer } from './read-answers.js';
import { readConnectionOf } from './read-connection.js';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/**
 * Each parameter is its value, and no value repeats. The repeat check is one Set (a pairwise loop
 * was O(n²): 1,280 parameters for a 64-row write, 2 % of the placement process while a load met
 * new batch sizes, issue 31). A Set holds +0 and -0 as one value, so it may call a query with both
 * not one-to-one where Object.is would not: that only declines a cache or refuses a marker set.
 */
function mapsOneToOne(parameters: readonly unknown[], values: readonly unknown[]): boolean {
  if (parameters.length !== values.length) return false;
  for (let i = 0; i < values.length; i++) if (!Object.is(parameters[i], values[i])) return false;
  return new Set(values).size === values.length;
}

/**
 * Runs a compiled read: on SQLite's read-only connection when `db` is the root database (its
 * prepared statement called directly, read-connection.ts), through Kysely otherwise (a transaction,
 * PostgreSQL, a memory database). Both answer the same rows: Kysely's SQLite driver hands back what
 * better-sqlite3's `all` returns, and the daemon's Kysely has no result plugins.
 */
async function runRead<R>(db: Db, query: CompiledQuery<R>, parameters: readonly unknown[]): Promise<R[]> {
  const reader = readConnectionOf(db);
  if (!reader) return (await db.executeQuery<R>({ ...query, parameters })).rows;
  const turn = turnSlice(); // as every SQLite statement does (sliced-sqlite-dialect.ts)
  if (turn) await turn;
  let statement = prepared.get(query);
  if (!statement || statement.database !== reader) prepared.set(query, (statement = reader.prepare(query.sql)));
  return readAnswer<R>(reader, query, statement, parameters);
}

/** Each compiled read's statement on the read-only connection (one compiled query per database's adapter). */
const prepared = new WeakMap<CompiledQuery, SQLite.Statement>();

/** Compiled queries are kept by the database's adapter, which its transactions share. */
const adapterOf = (db: Db): object => db.getExecutor().adapter;

export function precompiled<A extends unknown[], R>(build: (db: Db, ...values: A) => Compilable<R>) {
  const compiled = new WeakMap<object, CompiledQuery<R>>();
  return async (db: Db, ...values: A): Promise<R[]> => {
    const known = compiled.get(adapterOf(db));
    if (known) return runRead(db, known, values);
    const fresh = build(db, ...values).compile();
    if (mapsOneToOne(fresh.parameters, values)) compiled.set(adapterOf(db), fresh);
    return (await db.executeQuery<R>(fresh)).rows;
  };
}

/** Distinct compiled lengths kept per database for one list query (a wallet's mint count varies). */
const LIST_LENGTHS_MAX = 64;

/**
 * A read over a list of strings (an `in (...)`, used once or more), compiled once per database
 * and list length, then run with each call's list. Kysely built the `in` list afresh on every
 * call (positions: a third of the route's Kysely time, issue 31). The query is compiled with
 * stand-in values, and each compiled parameter is traced back to the stand-in it carries, so a
 * list used twice (`yes_mint in (…) or no_mint in (…)`) is bound right; a parameter that is not a
 * stand-in (a constant of the query's own) means the query runs as built, never mis-bound.
 */
export function precompiledList<R>(build: (db: Db, list: string[]) => Compilable<R>) {
  const compiled = new WeakMap<object, Map<number, { query: CompiledQuery<R>; slots: number[] } | null>>();
  return async (db: Db, list: string[]): Promise<R[]> => {
    let byLength = compiled.get(adapterOf(db));
    if (!byLength) compiled.set(adapterOf(db), (byLength = new Map()));
    let known = byLength.get(list.length);
    if (known === undefined) {
      const standIns = new Map(list.map((_, i) => [`\u0000pmx-list-${i}`, i]));
      const query = build(db, [...standIns.keys()]).compile();
      const slots = query.parameters.map((p) => (typeof p === 'string' ? (standIns.get(p) ?? -1) : -1));
      known = slots.includes(-1) ? null : { query, slots };
      if (byLength.size >= LIST_LENGTHS_MAX) byLength.clear();
      byLength.set(list.length, known);
    }
    if (!known) return (await db.executeQuery<R>(build(db, list).compile())).rows;
    return runRead(
      db,
      known.query,
      known.slots.map((i) => list[i]),
    );
  };
}

/**
 * A multi-row write (an upsert of many rows) compiled by Kysely once per database and row count,
 * then run with each call's rows written straight into its parameters. Building and compiling a
 * 500-row insert cost about as much CPU as SQLite spent running it (the indexing row of issue 31).
 *
 * Rows go in chunks of `maxRows` (a power of two), the rest in chunks of the powers of two of its
 * binary digits (300 rows with 128: 128, 128, 32, 8, 4), in the order given (a caller's lock order
 * stays the order of the writes): so one write compiles at most log2(maxRows) + 1 texts, and
 * SQLite's statement cache keeps them all.
 *
 * With `exact`, a write of at most `maxRows` rows is one statement of exactly its size (each
 * size compiled once, at most `maxRows` texts): for writes whose every statement is a round trip
 * of a transaction that others wait on (the matcher's batch), where one more statement costs more
 * than a text more.
 *
 * Each is compiled from marker rows (`marker(i)`: every value distinct across rows and columns),
 * so the compiled parameters must be exactly the markers in the order `write` puts a row's values:
 * a build that orders them otherwise, or folds one into its text, throws at its first use instead
 * of binding a value to the wrong column. Keyed by the database's adapter, which every
 * transaction of that database shares.
 */
export function precompiledRows<Row>(options: {
  build: (db: Db, rows: Row[]) => Compilable<unknown>;
  marker: (row: number) => Row;
  write: (row: Row, parameters: unknown[]) => void;
  maxRows: number;
  exact?: boolean;
}) {
  const { build, marker, write, maxRows, exact = false } = options;
  if (maxRows < 1 || (maxRows & (maxRows - 1)) !== 0) throw new Error('precompiledRows: maxRows must be a power of two');
  const compiled = new WeakMap<object, Map<number, CompiledQuery>>();
  const compile = (db: Db, count: number): CompiledQuery => {
    const markers = Array.from({ length: count }, (_, i) => marker(i));
    const query = build(db, markers).compile();
    const expected: unknown[] = [];
    for (const row of markers) write(row, expected);
    if (!mapsOneToOne(query.parameters, expected)) throw new Error('precompiledRows: parameters are not the rows in write order');
    return query;
  };
  const statement = (db: Db, rows: readonly Row[], from: number, count: number): CompiledQuery => {
    const adapter = db.getExecutor().adapter;
    let bySize = compiled.get(adapter);
    if (!bySize) compiled.set(adapter, (bySize = new Map()));
    let query = bySize.get(count);
    if (!query) bySize.set(count, (query = compile(db, count)));
    const parameters: unknown[] = [];
    for (let i = from; i < from + count; i++) write(rows[i]!, parameters);
    return { ...query, parameters };
  };
  const run = async (db: Db, rows: readonly Row[], from: number, count: number): Promise<void> => {
    await db.executeQuery(statement(db, rows, from, count));
  };
  const insert = async (db: Db, rows: readonly Row[]): Promise<void> => {
    if (exact) {
      for (let from = 0; from < rows.length; from += maxRows) await run(db, rows, from, Math.min(maxRows, rows.length - from));
      return;
    }
    let from = 0;
    for (; rows.length - from >= maxRows; from += maxRows) await run(db, rows, from, maxRows);
    for (let size = maxRows >> 1; size > 0; size >>= 1)
      if (rows.length - from >= size) {
        await run(db, rows, from, size);
        from += size;
      }
  };
  /** The one statement of `rows` (1 to maxRows of them, `exact` only), with their values, to run as part of another. */
  const one = (db: Db, rows: readonly Row[]): CompiledQuery => {
    if (!exact || rows.length < 1 || rows.length > maxRows)
      throw new Error('precompiledRows: one statement holds 1 to maxRows rows, exact only');
    return statement(db, rows, 0, rows.length);
  };
  return Object.assign(insert, { one });
}
