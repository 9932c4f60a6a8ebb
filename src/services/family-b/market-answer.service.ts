/**
 * A value made from a market as the index holds it, kept while no connection commits (issue 31):
 * GET /v2/markets/{id} keeps its serialized answer here, so a repeat read is one
 * `pragma data_version` and a send instead of a row copy, a view and a serialization.
 *
 * Only values made purely from the index are kept: the caller's `make` must depend on the indexed
 * row (account bytes and slot) alone, so while nothing commits it is what a fresh read would make.
 * A market the index lacks gives undefined (the caller reads the chain, or answers 404, unkept).
 * Without the read-only connection (PostgreSQL, in-memory SQLite) nothing is kept either.
 */
import { keptFor, keptIndexValue } from '../../../db/read-answers.js';
import { readConnectionOf } from '../../../db/read-connection.js';
import type { FamilyBContext } from './context.js';
import { readIndexedMarket, type LoadedMarket } from './market-reader.js';

/**
 * `owner`'s value kept under `key`, if any, found without a promise: a repeat read answers in the
 * handler's own turn. Undefined when nothing is kept (or no read-only connection): the caller
 * then takes its filling path (keptIndexedMarket, keptIndexAnswer), which looks again.
 */
export function keptValue<T>(ctx: FamilyBContext, owner: object, key: string): T | undefined {
  const reader = readConnectionOf(ctx.db);
  return reader && keptFor<T>(reader, owner).get(key);
}

/**
 * `owner`'s kept value for market `id`, or `make` of the indexed market, kept. The version is
 * read before the row, so a value is never older than the version it is filed under.
 */
export async function keptIndexedMarket<T>(
  ctx: FamilyBContext,
  owner: object,
  id: bigint,
  make: (market: LoadedMarket) => T,
): Promise<T | undefined> {
  const reader = readConnectionOf(ctx.db);
  if (!reader) return undefined;
  const kept = keptFor<T>(reader, owner);
  const key = String(id);
  let value = kept.get(key);
  if (value === undefined) {
    const indexed = await readIndexedMarket(ctx.db, ctx, id);
    if (!indexed) return undefined;
    kept.set(key, (value = make(indexed)));
  }
  return value;
}

/** `owner`'s kept index answer under `key`, or `make()` kept (db/read-answers.ts `keptIndexValue`). */
export const keptIndexAnswer = <T>(ctx: FamilyBContext, owner: object, key: string, make: () => Promise<T>) =>
  keptIndexValue(ctx.db, owner, key, make);
