/**
 * Family A's read answers kept while no connection commits (issue 31), as Family B keeps
 * GET /v2/markets/{id}: under the read-only connection's `pragma data_version`
 * (db/read-answers.ts `keptFor`), so a repeat read is one pragma and a send of the kept bytes.
 *
 * Only answers made from the index alone may be kept: the one-market summary (a function of the
 * `markets` and `family_a_markets` row) and the catalog pages (rows, total and cursor, all read
 * from the database). Neither reads the chain or the clock, so while nothing commits a kept answer
 * is what a fresh read would make. Without the read-only connection (PostgreSQL, in-memory SQLite)
 * nothing is kept and the caller takes its plain path.
 */
import { keptFor } from '../../../db/read-answers.js';
import { readConnectionOf } from '../../../db/read-connection.js';
import type { FamilyADeps } from './family-a.deps.js';

/**
 * `owner`'s kept value under `key`, or `make()` kept; undefined without the read-only connection.
 * The version is read (by `keptFor`) before `make` runs, so every read `make` does comes after it
 * and a value is never older than the version it is filed under. A `make` that throws (a 404, a
 * refused cursor) keeps nothing.
 */
export async function keptAnswer<T>(deps: FamilyADeps, owner: object, key: string, make: () => Promise<T>): Promise<T | undefined> {
  const reader = readConnectionOf(deps.db);
  if (!reader) return undefined;
  const kept = keptFor<T>(reader, owner);
  let value = kept.get(key);
  if (value === undefined) {
    value = await make();
    kept.set(key, value);
  }
  return value;
}
