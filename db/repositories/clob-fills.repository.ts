/** Orderbook fills (one query per function): written `matched` by the matcher, moved on by the keeper. */
import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import { big, num } from '../codec.js';
import type { ClobFillsTable, ClobGiveBack, Database } from '../schema.js';

type Db = Kysely<Database> | Transaction<Database>;
export type FillRow = Selectable<ClobFillsTable>;

export async function insertFills(db: Db, rows: Insertable<ClobFillsTable>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200)
    await db
      .insertInto('clob_fills')
      .values(rows.slice(i, i + 200))
      .execute();
}

export async function findFill(db: Db, id: string): Promise<FillRow | undefined> {
  return db.selectFrom('clob_fills').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function fillsOfOrder(db: Db, orderId: string): Promise<FillRow[]> {
  return db
    .selectFrom('clob_fills')
    .selectAll()
    .where((eb) => eb.or([eb('maker_order_id', '=', orderId), eb('taker_order_id', '=', orderId)]))
    .orderBy('seq')
    .execute();
}

/** The newest fill of a market (its last price), by the (market_id, seq) key. */
export async function lastFillOfMarket(db: Db, marketId: string): Promise<FillRow | undefined> {
  return db.selectFrom('clob_fills').selectAll().where('market_id', '=', marketId).orderBy('seq', 'desc').limit(1).executeTakeFirst();
}

/** A market's trades, newest first; `beforeSeq` continues a page. */
export async function listMarketFills(db: Db, marketId: string, limit: number, beforeSeq?: bigint): Promise<FillRow[]> {
  let q = db.selectFrom('clob_fills').selectAll().where('market_id', '=', marketId);
  if (beforeSeq !== undefined) q = q.where('seq', '<', beforeSeq);
  return q.orderBy('seq', 'desc').limit(limit).execute();
}

export interface OwnerFillFilter {
  owner: string;
  marketId?: string;
  after?: { matchedAt: string; id: string };
}

/**
 * One side (maker or taker) of the owner's fills, newest first; the caller merges both sides.
 * Each side walks its own (owner, matched_at) index and stops after `limit` rows.
 */
export async function listOwnerFillsAs(db: Db, role: 'maker' | 'taker', f: OwnerFillFilter, limit: number): Promise<FillRow[]> {
  let q = db
    .selectFrom('clob_fills')
    .selectAll()
    .where(role === 'maker' ? 'maker_owner' : 'taker_owner', '=', f.owner);
  if (f.marketId) q = q.where('market_id', '=', f.marketId);
  if (f.after) {
    const { matchedAt, id } = f.after;
    q = q.where((eb) => eb.or([eb('matched_at', '<', matchedAt), eb.and([eb('matched_at', '=', matchedAt), eb('id', '<', id)])]));
  }
  return q.orderBy('matched_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export function normalizeFill(row: FillRow): FillRow {
  return {
    ...row,
    seq: big(row.seq),
    price_bps: num(row.price_bps),
    maker_price_bps: num(row.maker_price_bps),
    quantity: big(row.quantity),
    usdc_amount: big(row.usdc_amount),
    maker_usdc: big(row.maker_usdc),
    taker_fee: big(row.taker_fee),
    maker_rebate: big(row.maker_rebate),
    protocol_fee: big(row.protocol_fee),
    rounding_dust: big(row.rounding_dust),
    retry_count: num(row.retry_count),
    positions_applied: num(row.positions_applied),
  };
}

/** What an order's fills mean for how it reads (order.presenter.ts). */
export interface OrderFillTally {
  /** Fills still on their way to the chain (the order reads `settling`). */
  unsettled: number;
  /** Quantity of failed fills not given back to this order (a give-back restores `remaining`). */
  failedQuantity: bigint;
}

/**
 * The tally's grouped selects (`order_id`, `n` unsettled fills, `failed` quantity), one row per
 * order and role; an order both maker and taker has two. Also read with the orders themselves
 * (clob-orders.repository.ts `ordersWithFillTallies`).
 */
export function fillTallyRows(db: Db, orderIds: readonly string[]) {
  const ids = [...orderIds];
  const unsettled = sql<number | bigint | string>`sum(case when status in ('matched', 'settling', 'retrying') then 1 else 0 end)`;
  // A failed fill counts against the order unless its quantity was given back to this very order.
  const failed = (role: 'maker_order_id' | 'taker_order_id') => sql<number | bigint | string>`
    sum(case when status in ('failed', 'failed_insufficient_balance')
      and not (coalesce(give_back, '') = 'restored' and give_back_order_id = ${sql.ref(role)}) then quantity else 0 end)`;
  return db
    .selectFrom('clob_fills')
    .select(['maker_order_id as order_id', unsettled.as('n'), failed('maker_order_id').as('failed')])
    .where('maker_order_id', 'in', ids)
    .groupBy('maker_order_id')
    .unionAll(
      db
        .selectFrom('clob_fills')
        .select(['taker_order_id as order_id', unsettled.as('n'), failed('taker_order_id').as('failed')])
        .where('taker_order_id', 'in', ids)
        .groupBy('taker_order_id'),
    );
}

/**
 * Each order's unsettled fills and failed quantity. Found through the order-id indexes, one
 * grouped select per role: with the status in the WHERE, SQLite planned a scan of every unsettled
 * fill by status instead (8 ms for 16 orders among 10,000 matched fills; this runs in every
 * matcher batch, orders/batch-views.ts). Orders absent from the map have neither.
 */
export async function fillTallyByOrder(db: Db, orderIds: string[]): Promise<Map<string, OrderFillTally>> {
  const tallies = new Map<string, OrderFillTally>();
  if (orderIds.length === 0) return tallies;
  const rows = await fillTallyRows(db, orderIds).execute();
  for (const r of rows) {
    const n = num(r.n);
    const failedQuantity = big(r.failed ?? 0);
    if (n === 0 && failedQuantity === 0n) continue;
    const t = tallies.get(r.order_id) ?? { unsettled: 0, failedQuantity: 0n };
    tallies.set(r.order_id, { unsettled: t.unsettled + n, failedQuantity: t.failedQuantity + failedQuantity });
  }
  return tallies;
}

/** What the chain computed for a fill (its receipt), when it differs from the engine's numbers. */
export interface FillAmounts {
  usdcAmount: bigint;
  makerUsdc: bigint;
  takerFee: bigint;
  makerRebate: bigint;
  protocolFee: bigint;
  roundingDust: bigint;
}

/**
 * The receipts' amounts of many fills in one UPDATE (a group of landed batches): each column
 * a `CASE clob_fills.id WHEN …` of its values, portable to SQLite and PostgreSQL.
 */
export async function setFillsAmounts(db: Db, entries: ReadonlyArray<{ id: string; amounts: FillAmounts }>): Promise<void> {
  for (let i = 0; i < entries.length; i += 200) {
    const chunk = entries.slice(i, i + 200);
    const column = (pick: (a: FillAmounts) => bigint) =>
      sql<bigint>`case clob_fills.id ${sql.join(
        chunk.map((e) => sql`when ${e.id} then cast(${pick(e.amounts)} as bigint)`),
        sql` `,
      )} end`;
    await db
      .updateTable('clob_fills')
      .set({
        usdc_amount: column((a) => a.usdcAmount),
        maker_usdc: column((a) => a.makerUsdc),
        taker_fee: column((a) => a.takerFee),
        maker_rebate: column((a) => a.makerRebate),
        protocol_fee: column((a) => a.protocolFee),
        rounding_dust: column((a) => a.roundingDust),
      })
      .where(
        'id',
        'in',
        chunk.map((e) => e.id),
      )
      .execute();
  }
}

/** Fails a matched fill that can never settle (it is in no batch). */
export async function failMatchedFill(
  db: Db,
  id: string,
  status: 'failed' | 'failed_insufficient_balance',
  reason: string,
  now: string,
): Promise<boolean> {
  const res = await db
    .updateTable('clob_fills')
    .set({ status, failure_reason: reason, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'matched')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function fillsByIds(db: Db, ids: string[]): Promise<FillRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('clob_fills').selectAll().where('id', 'in', ids).execute();
}

/**
 * The keeper, failing fills an owner could not pay: each names the innocent party's order to give
 * the quantity back to — `pending` for the matcher while that order rests, else `not_resting` at
 * once (an ioc taker, a filled or cancelled order: nothing waits, and the fill may be re-driven).
 * One UPDATE: the fill → order map is a `CASE clob_fills.id WHEN …` (portable to SQLite and
 * PostgreSQL; qualified because the subquery has an `id` of its own), and whether the order rests
 * is read by the same statement.
 */
export async function markGiveBacks(db: Db, marks: ReadonlyArray<{ fillId: string; orderId: string }>): Promise<void> {
  if (marks.length === 0) return;
  const whens = marks.map((m) => sql`when ${m.fillId} then ${m.orderId}`);
  const orderOf = sql<string>`case clob_fills.id ${sql.join(whens, sql` `)} end`;
  const rests = sql<boolean>`exists (select 1 from clob_orders
    where clob_orders.id = ${orderOf} and clob_orders.status in ('open', 'partially_filled'))`;
  await db
    .updateTable('clob_fills')
    .set({
      give_back: sql<ClobGiveBack>`case when ${rests} then 'pending' else 'not_resting' end`,
      give_back_order_id: orderOf,
    })
    .where(
      'id',
      'in',
      marks.map((m) => m.fillId),
    )
    .where('give_back', 'is', null)
    .execute();
}

/** Give-backs waiting for the matcher of `marketIds` (the partial index of migration 0010). */
export async function pendingGiveBacks(db: Db, marketIds: string[], limit: number): Promise<FillRow[]> {
  if (marketIds.length === 0) return [];
  return db
    .selectFrom('clob_fills')
    .selectAll()
    .where('give_back', '=', 'pending')
    .where('market_id', 'in', marketIds)
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/** Ends a pending give-back with what the matcher did; false when it was no longer pending. */
export async function endGiveBack(db: Db, fillId: string, result: Exclude<ClobGiveBack, 'pending'>): Promise<boolean> {
  const res = await db
    .updateTable('clob_fills')
    .set({ give_back: result })
    .where('id', '=', fillId)
    .where('give_back', '=', 'pending')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Which of `fillIds` still wait for their give-back (read inside the matcher's batch transaction). */
export async function stillPendingGiveBacks(db: Db, fillIds: string[]): Promise<Set<string>> {
  if (fillIds.length === 0) return new Set();
  const rows = await db.selectFrom('clob_fills').select('id').where('id', 'in', fillIds).where('give_back', '=', 'pending').execute();
  return new Set(rows.map((r) => r.id));
}
