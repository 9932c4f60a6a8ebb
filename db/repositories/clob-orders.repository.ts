/**
 * Orderbook orders (one query per function). The matcher writes them in its placement
 * transaction; the book is rebuilt from the resting ones (`open`, `partially_filled`).
 */
import { sql, type CompiledQuery, type Insertable, type Kysely, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import { big, num } from '../codec.js';
import { precompiledList, precompiledRows } from '../precompiled.js';
import { fillTallyRows, type OrderFillTally } from './clob-fills.repository.js';
import type { ClobOrdersTable, Database } from '../schema.js';

type Db = Kysely<Database> | Transaction<Database>;
export type OrderRow = Selectable<ClobOrdersTable>;

export const RESTING_STATUSES = ['open', 'partially_filled'] as const;

/**
 * `status in ('open', 'partially_filled')` with the values inline: SQLite uses a partial index
 * (0025's resting orders by owner) only when the query's own terms imply the index's condition,
 * and a bound parameter never does.
 */
export const isRestingStatus = sql<boolean>`status in ('open', 'partially_filled')`;

export async function insertOrder(db: Db, row: Insertable<ClobOrdersTable>): Promise<void> {
  await db.insertInto('clob_orders').values(row).execute();
}

type OrderInsert = Insertable<ClobOrdersTable>;

/**
 * Many orders, in multi-row statements (below both dialects' parameter limits), compiled once per
 * database and row count (db/precompiled.ts): the matcher's batch inserts its new orders, 23
 * columns each, and Kysely built and compiled that statement afresh for every batch (issue 31).
 * One statement per 64 orders, of exactly their count.
 */
const insertOrderRows = precompiledRows<OrderInsert>({
  maxRows: 64,
  exact: true,
  build: (db, rows) => db.insertInto('clob_orders').values(rows),
  // Every value distinct across rows and columns, so each compiled parameter names its column.
  marker: (i) => {
    const n = 1_000 * i;
    const text = (column: string) => `${column}${i}`;
    return {
      id: text('id'),
      market_id: text('market'),
      owner: text('owner'),
      side: text('side') as 'buy',
      outcome: text('outcome') as 'yes',
      price_bps: n + 1,
      quantity: BigInt(n + 2),
      remaining: BigInt(n + 3),
      status: text('status') as 'open',
      order_type: text('type') as 'limit',
      time_in_force: text('tif') as 'gtc',
      post_only: n + 4,
      nonce: text('nonce'),
      expiry: BigInt(n + 5),
      message: text('message'),
      signature: text('signature'),
      seq: BigInt(n + 6),
      notional: BigInt(n + 7),
      usdc: BigInt(n + 8),
      committed: BigInt(n + 9),
      cancel_reason: text('cancel'),
      created_at: text('created'),
      updated_at: text('updated'),
    };
  },
  // In the order of the marker's keys, which Kysely's columns follow.
  write: (r, parameters) =>
    parameters.push(
      r.id,
      r.market_id,
      r.owner,
      r.side,
      r.outcome,
      r.price_bps,
      r.quantity,
      r.remaining,
      r.status,
      r.order_type,
      r.time_in_force,
      r.post_only,
      r.nonce,
      r.expiry,
      r.message,
      r.signature,
      r.seq,
      r.notional,
      r.usdc,
      r.committed,
      r.cancel_reason ?? null,
      r.created_at,
      r.updated_at,
    ),
});

export async function insertOrders(db: Db, rows: readonly OrderInsert[]): Promise<void> {
  await insertOrderRows(db, rows);
}

/** The insert of 1 to 64 orders as one compiled statement, to run inside another (clob-batch-writes.ts). */
export function insertOrdersStatement(db: Db, rows: readonly OrderInsert[]): CompiledQuery {
  return insertOrderRows.one(db, rows);
}

export interface OrderStateChange {
  id: string;
  remaining: bigint;
  notional: bigint;
  usdc: bigint;
  committed: bigint;
  status: OrderRow['status'];
  /** Kept as stored when absent. */
  cancelReason?: string;
}

/**
 * The book's view of resting orders after fills, self-trade cancels, expiries or user cancels:
 * one `UPDATE … FROM (VALUES …)` per 500 orders (both dialects), not one statement per order —
 * on PostgreSQL each statement is a round trip inside the matcher's batch transaction.
 */
/**
 * The same update of at most 500 orders as one `UPDATE … FROM (VALUES …)` without a WITH of its
 * own, so that it can be a data-modifying CTE of a larger statement (PostgreSQL,
 * clob-batch-writes.ts).
 */
export function orderStatesUpdate(changes: readonly OrderStateChange[], now: string): RawBuilder<unknown> {
  if (changes.length > 500) throw new Error('orderStatesUpdate: at most 500 orders per statement');
  const values = sql.join(
    changes.map(
      (c) =>
        sql`(${c.id}, cast(${c.remaining} as bigint), cast(${c.notional} as bigint), cast(${c.usdc} as bigint), cast(${c.committed} as bigint), cast(${c.status} as text), cast(${c.cancelReason ?? null} as text))`,
    ),
  );
  return sql`update clob_orders set remaining = v.remaining, notional = v.notional, usdc = v.usdc, committed = v.committed, status = v.status,
      cancel_reason = coalesce(v.cancel_reason, clob_orders.cancel_reason), updated_at = ${now}
    from (values ${values}) as v(id, remaining, notional, usdc, committed, status, cancel_reason) where clob_orders.id = v.id`;
}

export async function updateOrderStates(db: Db, changes: readonly OrderStateChange[], now: string): Promise<void> {
  for (let i = 0; i < changes.length; i += 500) {
    const values = sql.join(
      changes
        .slice(i, i + 500)
        .map(
          (c) =>
            sql`(${c.id}, cast(${c.remaining} as bigint), cast(${c.notional} as bigint), cast(${c.usdc} as bigint), cast(${c.committed} as bigint), cast(${c.status} as text), cast(${c.cancelReason ?? null} as text))`,
        ),
    );
    await sql`with v(id, remaining, notional, usdc, committed, status, cancel_reason) as (values ${values})
      update clob_orders set remaining = v.remaining, notional = v.notional, usdc = v.usdc, committed = v.committed, status = v.status,
        cancel_reason = coalesce(v.cancel_reason, clob_orders.cancel_reason), updated_at = ${now}
      from v where clob_orders.id = v.id`.execute(db);
  }
}

export async function findOrder(db: Db, id: string): Promise<OrderRow | undefined> {
  return db.selectFrom('clob_orders').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Orders by id, in no particular order (callers keep lists below both dialects' parameter limits). */
export async function ordersByIds(db: Db, ids: readonly string[]): Promise<OrderRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('clob_orders')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

// Compiled once per id count: Kysely rebuilt this three-list join for every matcher batch (issue 31).
const ordersWithTallyRows = precompiledList((db, ids) =>
  db
    .selectFrom('clob_orders as o')
    .leftJoin(fillTallyRows(db, ids).as('t'), 't.order_id', 'o.id')
    .selectAll('o')
    .select(['t.n as tally_n', 't.failed as tally_failed'])
    .where('o.id', 'in', ids),
);

/**
 * Orders by id with their fills' tally (`fillTallyByOrder`), in ONE statement: each matcher batch
 * that changed resting orders reads them back for its events, and on PostgreSQL the two reads
 * were two round trips of its transaction (issue 31). The tally's grouped selects are joined as
 * they are (one row per order and role, summed here), so they still go through the order-id
 * indexes. An order without unsettled fills or failed quantity has no tally.
 */
export async function ordersWithFillTallies(db: Db, ids: readonly string[]): Promise<Array<{ row: OrderRow; tally?: OrderFillTally }>> {
  if (ids.length === 0) return [];
  const rows = await ordersWithTallyRows(db, [...ids]);
  const out = new Map<string, { row: OrderRow; tally?: OrderFillTally }>();
  for (const { tally_n, tally_failed, ...row } of rows) {
    const entry = out.get(row.id) ?? { row };
    out.set(row.id, entry);
    const unsettled = num(tally_n ?? 0);
    const failedQuantity = big(tally_failed ?? 0);
    if (unsettled === 0 && failedQuantity === 0n) continue;
    const t = entry.tally ?? { unsettled: 0, failedQuantity: 0n };
    entry.tally = { unsettled: t.unsettled + unsettled, failedQuantity: t.failedQuantity + failedQuantity };
  }
  return [...out.values()];
}

export async function nonceUsed(db: Db, owner: string, nonce: string): Promise<boolean> {
  return (
    (await db.selectFrom('clob_orders').select('id').where('owner', '=', owner).where('nonce', '=', nonce).executeTakeFirst()) !== undefined
  );
}

/** A market's resting orders (the book's rebuild), through 0026's partial index of resting orders by market. */
export async function restingOrdersOfMarket(db: Db, marketId: string): Promise<OrderRow[]> {
  return db.selectFrom('clob_orders').selectAll().where('market_id', '=', marketId).where(isRestingStatus).execute();
}

/** How many orders the owner has resting, overall and in `marketId`. */
export async function restingCounts(db: Db, owner: string, marketId: string): Promise<{ total: number; inMarket: number }> {
  const row = await db
    .selectFrom('clob_orders')
    .select([
      sql<number | bigint>`count(*)`.as('total'),
      sql<number | bigint>`coalesce(sum(case when market_id = ${marketId} then 1 else 0 end), 0)`.as('in_market'),
    ])
    .where('owner', '=', owner)
    .where('status', 'in', [...RESTING_STATUSES])
    .executeTakeFirstOrThrow();
  return { total: num(row.total), inMarket: num(row.in_market) };
}

/** Markets where the owner has resting orders (cancel-all across markets). */
export async function marketsWithRestingOrders(db: Db, owner: string): Promise<string[]> {
  const rows = await db
    .selectFrom('clob_orders')
    .select('market_id')
    .distinct()
    .where('owner', '=', owner)
    .where('status', 'in', [...RESTING_STATUSES])
    .execute();
  return rows.map((r) => r.market_id);
}

export interface OrderListFilter {
  owner: string;
  marketId?: string;
  statuses?: OrderRow['status'][];
  after?: { createdAt: string; id: string };
}

/** The owner's orders, newest first (keyset on created_at, id). */
export async function listOrders(db: Db, f: OrderListFilter, limit: number): Promise<OrderRow[]> {
  let q = db.selectFrom('clob_orders').selectAll().where('owner', '=', f.owner);
  if (f.marketId) q = q.where('market_id', '=', f.marketId);
  if (f.statuses?.length) q = q.where('status', 'in', f.statuses);
  if (f.after) {
    const { createdAt, id } = f.after;
    q = q.where((eb) => eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)])]));
  }
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** Normalises SQLite's bigint-for-every-integer to the declared types. */
export function normalizeOrder(row: OrderRow): OrderRow {
  return {
    ...row,
    price_bps: num(row.price_bps),
    post_only: num(row.post_only),
    quantity: big(row.quantity),
    remaining: big(row.remaining),
    expiry: big(row.expiry),
    seq: big(row.seq),
    notional: big(row.notional),
    usdc: big(row.usdc),
    committed: big(row.committed),
  };
}

/** The signed messages of orders (settlement carries them to the chain). */
export async function signedOrders(db: Db, ids: string[]): Promise<Map<string, { message: string; signature: string; owner: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('clob_orders').select(['id', 'message', 'signature', 'owner']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, { message: r.message, signature: r.signature, owner: r.owner }]));
}
