/**
 * The shared market catalog (`markets`), as Family B's confirm writes it: one row per on-chain
 * market, keyed by `chain_market_id`, with the website metadata and a unique slug so the market
 * also appears in Family A's list and search.
 */
import type { Kysely } from 'kysely';
import type { Database, MarketsTable } from '../schema.js';

export type CatalogEntry = Omit<MarketsTable, 'chain_market_id' | 'published'> & { chain_market_id: bigint; published: number };

export async function findCatalogByChainId(db: Kysely<Database>, marketId: bigint) {
  return db.selectFrom('markets').selectAll().where('chain_market_id', '=', marketId).executeTakeFirst();
}

export async function slugTaken(db: Kysely<Database>, slug: string, exceptId?: string): Promise<boolean> {
  let query = db.selectFrom('markets').select('id').where('slug', '=', slug);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function upsertCatalogEntry(db: Kysely<Database>, entry: CatalogEntry): Promise<void> {
  const { id: _id, created_at: _created, ...changes } = entry;
  await db
    .insertInto('markets')
    .values(entry)
    .onConflict((oc) => oc.column('chain_market_id').doUpdateSet(changes))
    .execute();
}

/** Keeps the catalog's status/outcome in step with the chain (called by the indexer). */
export async function syncCatalogStatus(
  db: Kysely<Database>,
  marketId: bigint,
  status: string,
  outcome: 'YES' | 'NO' | null,
  resolvedAt: string | null,
): Promise<void> {
  await db
    .updateTable('markets')
    .set({ status, outcome, resolved_at: resolvedAt, updated_at: new Date().toISOString() })
    .where('chain_market_id', '=', marketId)
    .where((eb) => eb.or([eb('status', '!=', status), eb('outcome', 'is', null)]))
    .execute();
}
