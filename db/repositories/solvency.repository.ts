/**
 * The markets the console's solvency checks read from the chain: the newest of each family,
 * capped by the caller (one query each, over the primary key or the catalog's creation time).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** Family B markets as indexed (newest ids first): the market account's address. */
export async function newestChainMarkets(db: Kysely<Database>, limit: number) {
  return db.selectFrom('chain_markets').select(['market_id', 'address']).orderBy('market_id', 'desc').limit(limit).execute();
}

/** Orderbook markets (newest first): the market account, its vault and outcome mints. */
export async function newestOrderbookMarkets(db: Kysely<Database>, limit: number) {
  return db
    .selectFrom('clob_markets as c')
    .innerJoin('markets as m', 'm.id', 'c.market_id')
    .select(['m.id', 'm.slug', 'm.yes_mint', 'm.no_mint', 'c.market_pubkey', 'c.vault'])
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(limit)
    .execute();
}
