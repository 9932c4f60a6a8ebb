/**
 * Orderbook markets: the shared catalog row (`markets`, kind 'clob') joined with its orderbook
 * terms (`clob_markets`). The status columns follow the chain: the indexer writes them from the
 * market account, and a read never overwrites a newer slot.
 */
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { ClobMarketsTable, Database, MarketsTable } from '../schema.js';

type Db = Kysely<Database> | Transaction<Database>;

const COLUMNS = [
  'm.id',
  'm.slug',
  'm.name',
  'm.description',
  'm.category',
  'm.image_urls',
  'm.status',
  'm.outcome',
  'm.creator',
  'm.yes_ticker',
  'm.no_ticker',
  'm.yes_mint',
  'm.no_mint',
  'm.end_date',
  'm.resolved_at',
  'm.created_at',
  'm.updated_at',
  'c.market_pubkey',
  'c.vault',
  'c.resolution_rules',
  'c.image_url',
  'c.lookup_table',
  'c.setup_outbound_id',
  'c.slot',
  'c.min_order_size',
] as const;

function select(db: Db) {
  return db.selectFrom('markets as m').innerJoin('clob_markets as c', 'c.market_id', 'm.id').select(COLUMNS);
}

export type ClobMarketRow = NonNullable<Awaited<ReturnType<typeof findClobMarketById>>>;

export async function insertClobTerms(db: Db, row: Insertable<ClobMarketsTable>): Promise<void> {
  await db.insertInto('clob_markets').values(row).execute();
}

export async function insertCatalogMarket(db: Db, row: Insertable<MarketsTable>): Promise<void> {
  await db.insertInto('markets').values(row).execute();
}

export async function findClobMarketById(db: Db, id: string) {
  return select(db).where('m.id', '=', id).executeTakeFirst();
}

export async function findClobMarketBySlug(db: Db, slug: string) {
  return select(db).where('m.slug', '=', slug).executeTakeFirst();
}

export async function findClobMarketByPubkey(db: Db, pubkey: string) {
  return select(db).where('c.market_pubkey', '=', pubkey).executeTakeFirst();
}

export interface ClobMarketFilter {
  statuses: string[];
  category?: string;
  /** Keyset: rows strictly after (created_at, id) in newest-first order. */
  after?: { createdAt: string; id: string };
}

/** Newest first; `limit` rows (the caller asks one more to learn whether a next page exists). */
export async function listClobMarkets(db: Db, f: ClobMarketFilter, limit: number) {
  let q = select(db).where('m.status', 'in', f.statuses);
  if (f.category !== undefined) q = q.where('m.category', '=', f.category);
  if (f.after) {
    const { createdAt, id } = f.after;
    q = q.where((eb) => eb.or([eb('m.created_at', '<', createdAt), eb.and([eb('m.created_at', '=', createdAt), eb('m.id', '<', id)])]));
  }
  return q.orderBy('m.created_at', 'desc').orderBy('m.id', 'desc').limit(limit).execute();
}

/** Every orderbook market known to the catalog (the index pass and the matcher's start). */
export async function listAllClobMarkets(db: Db) {
  return select(db).orderBy('m.created_at').execute();
}

/** Orderbook markets per catalog status, in one grouped query (the metrics scrape). */
export async function clobMarketStatusCounts(db: Db): Promise<Array<{ status: string; n: number | bigint | string }>> {
  return db
    .selectFrom('markets as m')
    .innerJoin('clob_markets as c', 'c.market_id', 'm.id')
    .select(['m.status as status', (eb) => eb.fn.countAll<number | bigint | string>().as('n')])
    .groupBy('m.status')
    .execute();
}

/** The catalog status of each of `ids` (the matcher catches up with changes it was not told of). */
export async function clobMarketStatuses(db: Db, ids: string[]): Promise<Array<{ id: string; status: string }>> {
  if (ids.length === 0) return [];
  return db.selectFrom('markets').select(['id', 'status']).where('id', 'in', ids).execute();
}

/** Stamps the slot of an indexed read; false when the row already holds a newer read. */
export async function claimClobSlot(db: Db, marketId: string, slot: bigint): Promise<boolean> {
  const res = await db
    .updateTable('clob_markets')
    .set({ slot })
    .where('market_id', '=', marketId)
    .where('slot', '<=', slot)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function setClobCatalogStatus(
  db: Db,
  marketId: string,
  s: { status: string; outcome: 'YES' | 'NO' | null; resolvedAt: string | null; now: string },
): Promise<void> {
  await db
    .updateTable('markets')
    .set({ status: s.status, outcome: s.outcome, resolved_at: s.resolvedAt, updated_at: s.now })
    .where('id', '=', marketId)
    .where('status', '!=', s.status) // a resolution changes the status and the outcome together
    .execute();
}

export async function setClobLookupTable(db: Db, marketId: string, address: string): Promise<void> {
  await db.updateTable('clob_markets').set({ lookup_table: address }).where('market_id', '=', marketId).execute();
}

/** Orderbook markets by id (the balances endpoint names the markets an owner holds or commits in). */
export async function findClobMarketsByIds(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return select(db).where('m.id', 'in', ids).execute();
}

/** Orderbook markets named by id or slug (one query for a batch read, e.g. the prices endpoint). */
export async function findClobMarketsByRefs(db: Db, ids: string[], slugs: string[]) {
  if (ids.length === 0 && slugs.length === 0) return [];
  return select(db)
    .where((eb) => eb.or([...(ids.length > 0 ? [eb('m.id', 'in', ids)] : []), ...(slugs.length > 0 ? [eb('m.slug', 'in', slugs)] : [])]))
    .execute();
}

/** Orderbook markets whose outcome mint is one of `mints`. */
export async function findClobMarketsByMints(db: Db, mints: string[]) {
  if (mints.length === 0) return [];
  return select(db)
    .where((eb) => eb.or([eb('m.yes_mint', 'in', mints), eb('m.no_mint', 'in', mints)]))
    .execute();
}

/**
 * Takes over a market's book: bumps the fencing epoch (every later write of the old owner fails)
 * and returns the new one from the same statement (RETURNING: SQLite ≥ 3.35, PostgreSQL). Read
 * separately, two nodes taking over at once could both read the final epoch and both write.
 * Undefined when the market has no orderbook row.
 */
export async function bumpMatcherEpoch(db: Db, marketId: string, node: string): Promise<bigint | undefined> {
  const row = await db
    .updateTable('clob_markets')
    .set((eb) => ({ matcher_epoch: eb('matcher_epoch', '+', 1n), matcher_node: node }))
    .where('market_id', '=', marketId)
    .returning('matcher_epoch')
    .executeTakeFirst();
  return row && BigInt(row.matcher_epoch);
}

/**
 * bumpMatcherEpoch for many markets in one transaction: a matcher taking over a round's markets
 * commits once (one fsync on SQLite) instead of once per market. Rows are updated in market-id
 * order, so two matchers bumping overlapping sets on PostgreSQL lock them in one order.
 */
export async function bumpMatcherEpochs(db: Kysely<Database>, marketIds: readonly string[], node: string): Promise<Map<string, bigint>> {
  const sorted = [...new Set(marketIds)].sort();
  return db.transaction().execute(async (trx) => {
    const epochs = new Map<string, bigint>();
    for (const marketId of sorted) {
      const epoch = await bumpMatcherEpoch(trx, marketId, node);
      if (epoch !== undefined) epochs.set(marketId, epoch);
    }
    return epochs;
  });
}

/** Ids of the orderbook markets that trade now (/ready checks each has a live matcher). */
export async function activeClobMarketIds(db: Db): Promise<string[]> {
  const rows = await select(db).where('m.status', '=', 'active').execute();
  return rows.map((row) => row.id);
}
