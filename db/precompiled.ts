/**
 * A read built and compiled by Kysely once per database, then run with each call's values. On
 * the API's hot reads (a market by id or slug, a wallet's balances) Kysely spent more CPU building
 * and compiling the same statement than SQLite spent running it (issue 31: 0.2–0.5 ms per
 * request); the SQL text is the same every time, so it is compiled once and only the values change
 * (better-sqlite3 then reuses its prepared statement by that text: withStatementCache).
 *
 * The first call's values must come out as the compiled parameters, in order and nothing else (a
 * constant in the query is passed as a value too); when they do not (or two values are equal, so
 * the order cannot be told), that call runs as built and the next call tries again, so a query
 * that folds a value into its text is merely not precompiled, never run with the wrong values.
 */
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

function mapsOneToOne(parameters: readonly unknown[], values: readonly unknown[]): boolean {
  if (parameters.length !== values.length) return false;
  for (let i = 0; i < values.length; i++) {
    if (!Object.is(parameters[i], values[i])) return false;
    for (let j = 0; j < i; j++) if (Object.is(values[i], values[j])) return false;
  }
  return true;
}

export function precompiled<A extends unknown[], R>(build: (db: Db, ...values: A) => Compilable<R>) {
  const compiled = new WeakMap<Db, CompiledQuery<R>>();
  return async (db: Db, ...values: A): Promise<R[]> => {
    const known = compiled.get(db);
    if (known) return (await db.executeQuery<R>({ ...known, parameters: values })).rows;
    const fresh = build(db, ...values).compile();
    if (mapsOneToOne(fresh.parameters, values)) compiled.set(db, fresh);
    return (await db.executeQuery<R>(fresh)).rows;
  };
}
