/**
 * Settlement bookkeeping (one query per function): which matched fills can go into the next
 * batch, the batches in flight and the fills each carries, and the fills' status moves. A fill
 * moves only forward: matched → settling (in a batch) → settled | failed | back to matched (its
 * batch failed before landing: `retry_count` counts those).
 */
import type { ExpressionBuilder, Kysely, Transaction } from 'kysely';
import type { FillRow } from './clob-fills.repository.js';
import type { ClobFillStatus, Database } from '../schema.js';
import { insertBatches } from './clob-settle-group.repository.js';
import { moveGroupFills } from './clob-settle-record.repository.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Matched fills not in a batch, oldest first (a market's settlement order is its match order),
 * leaving out the fills of `exceptOrders` (as maker or taker): the planner passes the orders whose
 * proof is in flight, so fills that wait for them never take a place among the `limit` read.
 */
export async function matchedFillsOfMarket(db: Db, marketId: string, limit: number, exceptOrders: readonly string[] = []) {
  let query = db.selectFrom('clob_fills').selectAll().where('market_id', '=', marketId).where('status', '=', 'matched');
  if (exceptOrders.length > 0)
    query = query.where('maker_order_id', 'not in', exceptOrders).where('taker_order_id', 'not in', exceptOrders);
  return query.orderBy('seq').limit(limit).execute();
}

/** Markets with matched fills waiting for a batch. */
export async function marketsWithMatchedFills(db: Db, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('clob_fills').select('market_id').distinct().where('status', '=', 'matched').limit(limit).execute();
  return rows.map((r) => r.market_id);
}

/** Orders with fills in flight in this market (a later fill of such an order waits for them). */
export async function ordersInFlight(db: Db, marketId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('clob_fills')
    .select(['maker_order_id', 'taker_order_id'])
    .where('market_id', '=', marketId)
    .where('status', 'in', ['settling', 'retrying'])
    .execute();
  return new Set(rows.flatMap((r) => [r.maker_order_id, r.taker_order_id]));
}

/**
 * A planning pass's two reads in one statement (issue 31, fifteenth pass: each round trip of the
 * keeper's path waited for the daemon's event loop, 3–6 ms a statement in a loaded PostgreSQL drain):
 * the market's batches in flight (`room`: `maxInFlight` less them) and, when there is room, the
 * waiting fills `matchedFillsOfMarket` reads. No room: no fill is read (the count is a one-time
 * filter); no fill read: `room` 0, as no batch can be planned.
 */
export async function waitingFillsWithRoom(
  db: Db,
  marketId: string,
  limit: number,
  maxInFlight: number,
  exceptOrders: readonly string[] = [],
): Promise<{ room: number; fills: FillRow[] }> {
  const inFlight = (eb: ExpressionBuilder<Database, 'clob_fills'>) =>
    eb
      .selectFrom('clob_settlement_batches')
      .select((b) => b.fn.countAll().as('n'))
      .where('market_id', '=', marketId)
      .where('status', '=', 'pending');
  let query = db
    .selectFrom('clob_fills')
    .selectAll()
    .select((eb) => inFlight(eb).as('batches_in_flight'))
    .where('market_id', '=', marketId)
    .where('status', '=', 'matched')
    .where((eb) => eb(inFlight(eb), '<', maxInFlight));
  if (exceptOrders.length > 0)
    query = query.where('maker_order_id', 'not in', exceptOrders).where('taker_order_id', 'not in', exceptOrders);
  const rows = await query.orderBy('seq').limit(limit).execute();
  if (rows.length === 0) return { room: 0, fills: [] }; // no room, or nothing waits: no batch to plan either way
  // The rows as `matchedFillsOfMarket` returns them: the count was their last column.
  const fills = rows.map(({ batches_in_flight: _, ...fill }) => fill);
  return { room: maxInFlight - Number(rows[0]!.batches_in_flight), fills };
}

export async function countBatchesInFlight(db: Db, marketId: string): Promise<number> {
  const row = await db
    .selectFrom('clob_settlement_batches')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('market_id', '=', marketId)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface NewBatch {
  id: string;
  marketId: string;
  outboundId: string;
  fillIds: string[];
  now: string;
}

export async function insertBatch(db: Db, b: NewBatch): Promise<void> {
  await insertBatches(db, [b]);
}

/** Puts matched fills into a batch; returns how many moved (fewer: some were taken meanwhile). */
export async function moveFillsToBatch(db: Db, fillIds: string[], batchId: string, now: string): Promise<number> {
  return moveGroupFills(db, [{ batchId, fillIds }], now);
}

export async function findBatch(db: Db, id: string) {
  return db.selectFrom('clob_settlement_batches').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The fills a batch still carries (in batch order). */
export async function fillsOfBatch(db: Db, batchId: string) {
  return db
    .selectFrom('clob_batch_fills as b')
    .innerJoin('clob_fills as f', 'f.id', 'b.fill_id')
    .selectAll('f')
    .where('b.batch_id', '=', batchId)
    .where('f.batch_id', '=', batchId)
    .where('f.status', 'in', ['settling', 'retrying'])
    .orderBy('b.position')
    .execute();
}

/** The fills each of these batches still carries (in batch order), in one read: a group of batches confirmed at once. */
export async function fillsOfBatches(db: Db, batchIds: readonly string[]) {
  const byBatch = new Map<string, Awaited<ReturnType<typeof fillsOfBatch>>>(batchIds.map((id) => [id, []]));
  if (batchIds.length === 0) return byBatch;
  const rows = await db
    .selectFrom('clob_batch_fills as b')
    .innerJoin('clob_fills as f', (join) => join.onRef('f.id', '=', 'b.fill_id').onRef('f.batch_id', '=', 'b.batch_id'))
    .selectAll('f')
    .where('b.batch_id', 'in', [...new Set(batchIds)])
    .where('f.status', 'in', ['settling', 'retrying'])
    .orderBy('b.position')
    .execute();
  for (const r of rows) byBatch.get(r.batch_id!)?.push(r);
  return byBatch;
}

/** `setBatchStatus` for several batches in one statement; returns how many were still pending. */
export async function setBatchesStatus(db: Db, ids: readonly string[], status: 'settled' | 'failed', now: string): Promise<number> {
  if (ids.length === 0) return 0;
  const res = await db
    .updateTable('clob_settlement_batches')
    .set({ status, updated_at: now })
    .where('id', 'in', [...ids])
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export async function setBatchStatus(db: Db, id: string, status: 'pending' | 'settled' | 'failed', now: string): Promise<boolean> {
  const res = await db
    .updateTable('clob_settlement_batches')
    .set({ status, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Ends fills of a batch (settled, failed…), only those still in flight in it; returns the ids moved.
 * The status guard sits on the UPDATE itself: a batch's outcome can be recorded by two callers at
 * once (the sender's confirmation, the sweep), and under READ COMMITTED a select-then-update would
 * let both move the same fill and release its holds twice. Only the returned ids may release holds.
 */
export async function endFills(
  db: Db,
  batchId: string,
  fillIds: string[],
  s: { status: ClobFillStatus; settleTx?: string; failureReason?: string; now: string },
): Promise<string[]> {
  if (fillIds.length === 0) return [];
  const moved = await db
    .updateTable('clob_fills')
    .set({
      status: s.status,
      updated_at: s.now,
      ...(s.status === 'settled' ? { settle_tx: s.settleTx ?? null, settled_at: s.now } : {}),
      ...(s.failureReason !== undefined ? { failure_reason: s.failureReason } : {}),
    })
    .where('id', 'in', fillIds)
    .where('batch_id', '=', batchId)
    .where('status', 'in', ['settling', 'retrying'])
    .returning('id')
    .execute();
  return moved.map((r) => r.id);
}

/**
 * Gives fills of a batch back to the queue: its transaction failed before landing (`retry`: the
 * fill's retry_count + 1), or it carried them no further (orders registered, another fill refused).
 */
export async function releaseFills(
  db: Db,
  batchId: string,
  fillIds: string[],
  reason: string | null,
  now: string,
  retry = true,
): Promise<string[]> {
  if (fillIds.length === 0) return [];
  const released = await db
    .updateTable('clob_fills')
    .set((eb) => ({
      status: 'matched',
      batch_id: null,
      retry_count: retry ? eb('retry_count', '+', 1) : eb.ref('retry_count'),
      failure_reason: reason,
      updated_at: now,
    }))
    .where('id', 'in', fillIds)
    .where('batch_id', '=', batchId)
    .where('status', 'in', ['settling', 'retrying'])
    .returning('id')
    .execute();
  return released.map((r) => r.id);
}

/**
 * Fills of a batch whose transaction is being retried show `retrying` with the attempt count.
 * One guarded UPDATE: a fill the confirmation moved to `settled` meanwhile is never moved back.
 */
export async function markRetrying(db: Db, batchId: string, retryCount: number, reason: string, now: string): Promise<string[]> {
  const moved = await db
    .updateTable('clob_fills')
    .set({ status: 'retrying', retry_count: retryCount, failure_reason: reason, updated_at: now })
    .where('batch_id', '=', batchId)
    .where('status', 'in', ['settling', 'retrying'])
    .where('retry_count', '<', retryCount)
    .returning('id')
    .execute();
  return moved.map((r) => r.id);
}

/** Pending batches with their outbound row's state (the sweep reconciles the two). */
export async function pendingBatches(db: Db, limit: number) {
  return db
    .selectFrom('clob_settlement_batches as b')
    .innerJoin('outbound_transactions as o', 'o.id', 'b.outbound_id')
    .select(['b.id', 'b.market_id', 'b.outbound_id', 'o.status as outbound_status', 'o.attempts', 'o.last_error', 'o.signature'])
    .where('b.status', '=', 'pending')
    .orderBy('b.created_at')
    .limit(limit)
    .execute();
}

/** One market's pending batches with their outbound row (a pause or resolve stops them: settle-halt.ts). */
export async function pendingBatchesOfMarket(db: Db, marketId: string) {
  return db
    .selectFrom('clob_settlement_batches as b')
    .innerJoin('outbound_transactions as o', 'o.id', 'b.outbound_id')
    .select(['b.id', 'b.outbound_id', 'o.status as outbound_status', 'o.signature'])
    .where('b.market_id', '=', marketId)
    .where('b.status', '=', 'pending')
    .orderBy('b.created_at')
    .execute();
}

/** The keeper's dashboard: fills per status, and the oldest fill still to settle. */
export async function fillStatusCounts(db: Db) {
  return db
    .selectFrom('clob_fills')
    .select(['status', (eb) => eb.fn.countAll().as('n'), (eb) => eb.fn.min('matched_at').as('oldest')])
    .groupBy('status')
    .execute();
}

export async function failedFills(db: Db, limit: number) {
  return db
    .selectFrom('clob_fills')
    .selectAll()
    .where('status', 'in', ['failed', 'failed_insufficient_balance'])
    .orderBy('updated_at', 'desc')
    .limit(limit)
    .execute();
}

/** Operator re-drive of a failed fill: back to matched (the keeper batches it again). */
export async function redriveFill(db: Db, id: string, now: string): Promise<boolean> {
  const res = await db
    .updateTable('clob_fills')
    // A give-back that ended without changing the order is forgotten: should the fill fail again, it is tried anew.
    .set({ status: 'matched', batch_id: null, failure_reason: null, give_back: null, give_back_order_id: null, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['failed', 'failed_insufficient_balance'])
    // A quantity given back (or about to be) to the other party's order would be filled twice.
    .where((eb) => eb.or([eb('give_back', 'is', null), eb('give_back', 'in', ['not_resting', 'not_covered'])]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
