/** Orderbook positions (one query per function), written only by the positions job. */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { big } from '../codec.js';
import type { Database } from '../schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface PositionRow {
  id: string;
  marketId: string;
  owner: string;
  outcome: 'yes' | 'no';
  netQuantity: bigint;
  totalCost: bigint;
  totalProceeds: bigint;
  totalFees: bigint;
  realizedPnl: bigint;
  updatedAt: string;
}

const toRow = (r: Awaited<ReturnType<typeof selectOne>>): PositionRow | undefined =>
  r && {
    id: r.id,
    marketId: r.market_id,
    owner: r.owner,
    outcome: r.outcome,
    netQuantity: big(r.net_quantity),
    totalCost: big(r.total_cost),
    totalProceeds: big(r.total_proceeds),
    totalFees: big(r.total_fees),
    realizedPnl: big(r.realized_pnl),
    updatedAt: r.updated_at,
  };

function selectOne(db: Db, owner: string, marketId: string, outcome: 'yes' | 'no') {
  return db
    .selectFrom('clob_positions')
    .selectAll()
    .where('owner', '=', owner)
    .where('market_id', '=', marketId)
    .where('outcome', '=', outcome)
    .executeTakeFirst();
}

export async function findPosition(db: Db, owner: string, marketId: string, outcome: 'yes' | 'no'): Promise<PositionRow | undefined> {
  return toRow(await selectOne(db, owner, marketId, outcome));
}

type PositionValues = Omit<PositionRow, 'id'> & { id?: string };

const positionRow = (p: PositionValues) => ({
  id: p.id ?? randomUUID(),
  market_id: p.marketId,
  owner: p.owner,
  outcome: p.outcome,
  net_quantity: p.netQuantity,
  total_cost: p.totalCost,
  total_proceeds: p.totalProceeds,
  total_fees: p.totalFees,
  realized_pnl: p.realizedPnl,
  updated_at: p.updatedAt,
});

/** Inserts the rows, or updates every tally of the (owner, market, outcome) already there (its id stays). */
function upsertPositions(db: Db, positions: readonly PositionValues[]) {
  return db
    .insertInto('clob_positions')
    .values(positions.map(positionRow))
    .onConflict((oc) =>
      oc.columns(['owner', 'market_id', 'outcome']).doUpdateSet((eb) => ({
        net_quantity: eb.ref('excluded.net_quantity'),
        total_cost: eb.ref('excluded.total_cost'),
        total_proceeds: eb.ref('excluded.total_proceeds'),
        total_fees: eb.ref('excluded.total_fees'),
        realized_pnl: eb.ref('excluded.realized_pnl'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

export async function savePosition(db: Db, p: PositionValues): Promise<void> {
  await upsertPositions(db, [p]);
}

/**
 * The positions of these owners in these markets, both outcomes (one query for a run of the
 * positions job: was one per owner, market and outcome). Rows of an owner in a market the caller
 * did not pair them with may come too; the caller picks its pairs.
 */
export async function findPositionsOf(db: Db, owners: readonly string[], marketIds: readonly string[]): Promise<PositionRow[]> {
  if (owners.length === 0 || marketIds.length === 0) return [];
  const rows: PositionRow[] = [];
  for (let i = 0; i < owners.length; i += 500) {
    const page = await db
      .selectFrom('clob_positions')
      .selectAll()
      .where('owner', 'in', owners.slice(i, i + 500))
      .where('market_id', 'in', [...marketIds])
      .execute();
    for (const r of page) rows.push(toRow(r)!);
  }
  return rows;
}

/**
 * Writes positions in one upsert per 100 rows, in the order given: the caller sorts them by key
 * (owner, market, outcome), the lock order of every positions writer (db/row-locks.ts).
 */
export async function savePositions(db: Db, positions: ReadonlyArray<Omit<PositionRow, 'id'>>): Promise<void> {
  for (let i = 0; i < positions.length; i += 100) await upsertPositions(db, positions.slice(i, i + 100));
}

/** The owner's positions with holdings or realised PnL, with their market's catalog fields. */
export async function listPositions(db: Db, owner: string, marketId?: string) {
  let q = db
    .selectFrom('clob_positions as p')
    .innerJoin('markets as m', 'm.id', 'p.market_id')
    .selectAll('p')
    .select(['m.slug', 'm.name', 'm.status as market_status', 'm.outcome as market_outcome'])
    .where('p.owner', '=', owner)
    .where((eb) => eb.or([eb('p.net_quantity', '!=', 0n), eb('p.realized_pnl', '!=', 0n)]));
  if (marketId) q = q.where('p.market_id', '=', marketId);
  const rows = await q.orderBy('p.updated_at', 'desc').execute();
  return rows.map((r) => ({
    ...toRow(r)!,
    marketSlug: r.slug,
    marketTitle: r.name,
    marketStatus: r.market_status,
    marketOutcome: r.market_outcome,
  }));
}

/**
 * Settled fills not yet applied, written inline as the condition of 0026's partial index: SQLite
 * uses a partial index only when the query's own terms imply its condition, and a bound parameter
 * never does.
 */
const positionsWaiting = sql<boolean>`status = 'settled' and positions_applied = 0`;

/** Settled fills not yet applied to positions, oldest settlement first. */
export async function settledFillsToApply(db: Db, limit: number) {
  return db.selectFrom('clob_fills').selectAll().where(positionsWaiting).orderBy('settled_at').orderBy('seq').limit(limit).execute();
}

/** Claims fills for the positions job; returns how many it claimed (fewer: another run has them). */
export async function markFillsApplied(db: Db, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const res = await db
    .updateTable('clob_fills')
    .set({ positions_applied: 1 })
    .where('id', 'in', ids)
    .where('positions_applied', '=', 0)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Whether a settled fill of `owner` in `marketId` still waits for the job (0026's partial index). */
export async function hasUnappliedSettledFill(db: Db, owner: string, marketId: string): Promise<boolean> {
  const row = await db
    .selectFrom('clob_fills')
    .select('id')
    .where(positionsWaiting)
    .where('market_id', '=', marketId)
    .where((eb) => eb.or([eb('maker_owner', '=', owner), eb('taker_owner', '=', owner)]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Smart wallets (owner, market) whose indexed outcome-token balance differs from what the
 * owner's position counts: the splits, merges and redemptions the job has not seen yet (and fills
 * still on their way, which the job skips). A wallet with no indexed token account of a mint is
 * not compared for that mint. Keyset pages by (owner, market): a wallet left unexplained (tokens
 * sent from outside) never keeps the next ones out of a run.
 */
export async function walletPositionGaps(
  db: Db,
  after: { owner: string; marketId: string } | null,
  limit: number,
): Promise<Array<{ owner: string; marketId: string }>> {
  let q = db
    .selectFrom('token_accounts as t')
    .innerJoin('clob_wallets as w', 'w.escrow', 't.owner')
    .innerJoin('markets as m', (join) =>
      join.on((eb) =>
        eb.and([eb('m.kind', '=', 'clob'), eb.or([eb('m.yes_mint', '=', eb.ref('t.mint')), eb('m.no_mint', '=', eb.ref('t.mint'))])]),
      ),
    )
    .leftJoin('clob_positions as p', (join) =>
      join
        .onRef('p.owner', '=', 'w.owner')
        .onRef('p.market_id', '=', 'm.id')
        .on((eb) =>
          eb.or([
            eb.and([eb('p.outcome', '=', 'yes'), eb('m.yes_mint', '=', eb.ref('t.mint'))]),
            eb.and([eb('p.outcome', '=', 'no'), eb('m.no_mint', '=', eb.ref('t.mint'))]),
          ]),
        ),
    )
    .select(['w.owner', 'm.id as market_id'])
    .where((eb) => eb(eb.fn.coalesce('p.net_quantity', eb.lit(0)), '!=', eb.ref('t.amount')));
  if (after) q = q.where((eb) => eb(eb.refTuple('w.owner', 'm.id'), '>', eb.tuple(after.owner, after.marketId)));
  const rows = await q.distinct().orderBy('w.owner').orderBy('m.id').limit(limit).execute();
  return rows.map((r) => ({ owner: r.owner, marketId: r.market_id }));
}
