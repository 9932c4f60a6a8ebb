/**
 * The market catalog as Family A reads and writes it: `markets` (shared by the families) joined
 * with `family_a_markets` (price, limit, option wallets; absent for Family B markets). Search
 * uses the full-text index of migration 0002: FTS5 on SQLite, a GIN tsvector index on PostgreSQL;
 * each query word matches as a prefix, case-insensitively, and all words must match. Lists are
 * newest first (created_at, then id); SQLite search results are newest inserted first (FTS rowid
 * order). Pages are read by offset (the spec's) or after a keyset position (`after`: the last
 * row of the previous page), which seeks in the index instead of stepping over every earlier row.
 */
import { sql, type Expression, type ExpressionBuilder, type Insertable, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { Dialect } from '../database.js';
import { precompiled } from '../precompiled.js';
import type { Database, FamilyAMarketsTable, MarketsTable } from '../schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface MarketFilter {
  statuses?: string[];
  terms?: string[];
  creator?: string;
  published?: boolean;
}

export async function insertMarket(db: Db, row: Insertable<MarketsTable>): Promise<void> {
  await db.insertInto('markets').values(row).execute();
}

export async function insertFamilyATerms(db: Db, row: Insertable<FamilyAMarketsTable>): Promise<void> {
  await db.insertInto('family_a_markets').values(row).execute();
}

/** A market row as Family A reads it (also by the pending creations' repository). */
export const MARKET_COLUMNS = [
  'm.id',
  'm.slug',
  'm.kind',
  'm.chain_market_id',
  'm.name',
  'm.description',
  'm.category',
  'm.tags',
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
  'm.published',
  'm.created_at',
  'a.target_price_raw',
  'a.market_limit',
  'a.yes_wallet',
  'a.no_wallet',
  'a.creation_fee_usdc_raw',
  'a.creation_fee_lamports',
  'a.payment_deadline',
] as const;

/** Every API read of a market by slug runs this: compiled once (db/precompiled.ts). */
const marketBySlug = precompiled((db, slug: string) =>
  db.selectFrom('markets as m').leftJoin('family_a_markets as a', 'a.market_id', 'm.id').select(MARKET_COLUMNS).where('m.slug', '=', slug),
);

export async function findMarketBySlug(db: Db, slug: string) {
  const [row] = await marketBySlug(db, slug);
  return row;
}

export async function findMarketById(db: Db, id: string) {
  return db
    .selectFrom('markets as m')
    .leftJoin('family_a_markets as a', 'a.market_id', 'm.id')
    .select(MARKET_COLUMNS)
    .where('m.id', '=', id)
    .executeTakeFirst();
}

export type MarketRow = NonNullable<Awaited<ReturnType<typeof findMarketBySlug>>>;

function where(dialect: Dialect, f: MarketFilter) {
  return (eb: ExpressionBuilder<Database & { m: MarketsTable }, 'm'>): Expression<SqlBool> => {
    const parts: Expression<SqlBool>[] = [];
    if (f.statuses?.length) parts.push(eb('m.status', 'in', f.statuses));
    if (f.creator !== undefined) parts.push(eb('m.creator', '=', f.creator));
    if (f.published !== undefined) parts.push(eb('m.published', '=', f.published ? 1 : 0));
    if (f.terms?.length) {
      if (dialect === 'postgres') {
        const query = f.terms.map((t) => `${t}:*`).join(' & ');
        parts.push(sql<SqlBool>`to_tsvector('simple', m.name || ' ' || m.description) @@ to_tsquery('simple', ${query})`);
      } else {
        const query = f.terms.map((t) => `"${t}"*`).join(' ');
        parts.push(sql<SqlBool>`m.rowid in (select rowid from markets_fts where markets_fts match ${query})`);
      }
    }
    return eb.and(parts);
  };
}

/** Every list request reads it: compiled once (db/precompiled.ts), as the market reads are. */
const versionRow = precompiled((db) => ({
  compile: () => sql<{ version: bigint | number | string }>`select version from catalog_version where id = 1`.compile(db),
}));

/**
 * The catalog's version: bumped by triggers (migration 0009) in every transaction that writes
 * `markets` or `family_a_markets`, so a page or total read at this version is still exact while
 * it has not moved. Read it BEFORE the data it validates. (Raw SQL: a one-row table of the
 * migration's, not part of the schema the code writes.)
 */
export async function catalogVersion(db: Db): Promise<string> {
  const [row] = await versionRow(db);
  return String(row?.version ?? 0);
}

export async function countMarkets(db: Db, dialect: Dialect, f: MarketFilter): Promise<number> {
  // Search alone: count in the FTS index without visiting the rows (8x faster at 100k markets).
  if (dialect === 'sqlite' && f.terms?.length && !f.statuses?.length && f.creator === undefined && f.published === undefined) {
    const query = f.terms.map((t) => `"${t}"*`).join(' ');
    const { rows } = await sql<{ n: number | bigint }>`select count(*) as n from markets_fts where markets_fts match ${query}`.execute(db);
    return Number(rows[0]?.n ?? 0);
  }
  const row = await db
    .selectFrom('markets as m')
    .select((eb) => eb.fn.countAll<number | bigint | string>().as('n'))
    .where(where(dialect, f))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Where a keyset page starts: after this row of the previous one. Lists and PostgreSQL search
 * order by (created_at, id); SQLite search by the FTS rowid.
 */
export type MarketPosition = { createdAt: string; id: string } | { rowid: number };

/** Whether a listing with this filter on this dialect orders by FTS rowid (its positions are rowids). */
export function ordersByRowid(dialect: Dialect, f: MarketFilter): boolean {
  return dialect === 'sqlite' && (f.terms?.length ?? 0) > 0;
}

export async function listMarkets(db: Db, dialect: Dialect, f: MarketFilter, limit: number, offset: number, after?: MarketPosition) {
  if (ordersByRowid(dialect, f)) return searchSqlite(db, f, limit, offset, after && 'rowid' in after ? after.rowid : undefined);
  const page = (statuses: string[] | undefined) => {
    let query = db
      .selectFrom('markets as m')
      .leftJoin('family_a_markets as a', 'a.market_id', 'm.id')
      .select(MARKET_COLUMNS)
      .select(sql<number | null>`null`.as('fts_rowid'))
      .where(where(dialect, { ...f, statuses }));
    // A row value comparison: both engines seek it in the (…, created_at, id) indexes.
    if (after && 'createdAt' in after) query = query.where(sql<SqlBool>`(m.created_at, m.id) < (${after.createdAt}, ${after.id})`);
    return query;
  };
  const statuses = f.statuses ?? [];
  if (statuses.length <= 1)
    return page(f.statuses).orderBy('m.created_at', 'desc').orderBy('m.id', 'desc').limit(limit).offset(offset).execute();
  // Several statuses (`live` means live or active): `status IN (…)` cannot be read in order from
  // the (status, created_at, id) index, so every match was sorted (160 ms for a deep page at 100k
  // markets). One ordered arm per status, merged by the compound ORDER BY, stops after the page.
  let compound = page([statuses[0]!]);
  for (const status of statuses.slice(1)) compound = compound.unionAll(page([status]));
  return compound
    .orderBy(sql`created_at`, 'desc')
    .orderBy(sql`id`, 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/**
 * SQLite search walks the FTS index in rowid order (newest inserted first) and stops after the
 * page: no sort of every match (0.3 ms instead of 8 ms for a common word at 100k markets; prefix
 * indexes of migration 0009 keep short prefixes from being merged in memory first). A keyset page
 * starts below `beforeRowid`, which FTS5 seeks.
 */
function searchSqlite(db: Db, f: MarketFilter, limit: number, offset: number, beforeRowid?: number) {
  const query = f.terms!.map((t) => `"${t}"*`).join(' ');
  let q = db
    .selectFrom(sql<{ rowid: number }>`markets_fts`.as('f'))
    .innerJoin('markets as m', (join) => join.on(sql<SqlBool>`m.rowid = f.rowid`))
    .leftJoin('family_a_markets as a', 'a.market_id', 'm.id')
    .select(MARKET_COLUMNS)
    .select(sql<number | null>`f.rowid`.as('fts_rowid'))
    .where(sql<SqlBool>`markets_fts match ${query}`)
    .where(where('sqlite', { ...f, terms: undefined }) as never);
  if (beforeRowid !== undefined) q = q.where(sql<SqlBool>`f.rowid < ${beforeRowid}`);
  return q
    .orderBy(sql`f.rowid`, 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function setMarketStatus(
  db: Db,
  id: string,
  from: string[],
  status: string,
  now: string,
  published?: boolean,
): Promise<boolean> {
  const res = await db
    .updateTable('markets')
    .set({ status, updated_at: now, ...(published !== undefined ? { published: published ? 1 : 0 } : {}) })
    .where('id', '=', id)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function resolveMarketRow(db: Db, id: string, outcome: 'YES' | 'NO', now: string): Promise<boolean> {
  const res = await db
    .updateTable('markets')
    .set({ status: 'resolved', outcome, resolved_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['live', 'active'])
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function slugExists(db: Db, slug: string): Promise<boolean> {
  return (await db.selectFrom('markets').select('id').where('slug', '=', slug).executeTakeFirst()) !== undefined;
}

/** Family A markets one of whose option wallets is in `wallets` (whose inbound transfer is whose). */
export async function findMarketsByOptionWallets(db: Db, wallets: string[]) {
  if (wallets.length === 0) return [];
  return db
    .selectFrom('markets as m')
    .innerJoin('family_a_markets as a', 'a.market_id', 'm.id')
    .select(MARKET_COLUMNS)
    .where((eb) => eb.or([eb('a.yes_wallet', 'in', wallets), eb('a.no_wallet', 'in', wallets)]))
    .execute();
}

/** Markets one of whose outcome mints is in `mints`. */
export async function findMarketsByMints(db: Db, mints: string[]) {
  if (mints.length === 0) return [];
  return db
    .selectFrom('markets as m')
    .leftJoin('family_a_markets as a', 'a.market_id', 'm.id')
    .select(MARKET_COLUMNS)
    .where((eb) => eb.or([eb('m.yes_mint', 'in', mints), eb('m.no_mint', 'in', mints)]))
    .execute();
}
