/**
 * Every read (and guarded write) of clob_orders and clob_fills that used an index migration 0026
 * dropped or replaced, or could have fallen back on one (a status-only prefix), with the statements
 * each runs captured and explained on the database it ran on. Values name rows of the seeded
 * history (placement-index-seed.ts).
 */
import { CompiledQuery, type Kysely } from 'kysely';
import { batchStartRows } from '../../db/repositories/clob-batch.repository.js';
import {
  hasUnsettledFill,
  ownersWithRestingOrders,
  ownersWithRestingOrdersAmong,
  restingCommitments,
  restingCommitmentsOf,
  restingOrdersNewestFirst,
  unsettledFillsOf,
} from '../../db/repositories/clob-commitments.repository.js';
import { listOwnerFillsAs, pendingGiveBacks } from '../../db/repositories/clob-fills.repository.js';
import {
  listOrders,
  marketsWithRestingOrders,
  restingCounts,
  restingOrdersOfMarket,
} from '../../db/repositories/clob-orders.repository.js';
import { hasUnappliedSettledFill, settledFillsToApply } from '../../db/repositories/clob-positions.repository.js';
import {
  endFills,
  failedFills,
  fillsOfBatch,
  fillsOfBatches,
  marketsWithMatchedFills,
  markRetrying,
  matchedFillsOfMarket,
  ordersInFlight,
  releaseFills,
} from '../../db/repositories/clob-settlement.repository.js';
import { restingByMarket, restingOrderIds, stuckFills } from '../../db/repositories/console.repository.js';
import type { Database } from '../../db/schema.js';
import { StatementCapture } from '../helpers/statement-capture.js';

const NOW = '2027-01-01T00:00:00.000Z';

export interface PlanCase {
  name: string;
  /** The index SQLite must answer from (its plan names it), when the case is about one. */
  sqliteIndex?: string;
  run(db: Kysely<Database>): Promise<unknown>;
}

export const PLAN_CASES: PlanCase[] = [
  // Orders: the resting reads by owner ((owner, status), kept; the owners with resting orders used (status, expiry)).
  { name: 'restingCounts', sqliteIndex: 'clob_orders_owner_status_idx', run: (db) => restingCounts(db, 'owner-3', 'm3') },
  { name: 'marketsWithRestingOrders', sqliteIndex: 'clob_orders_owner_status_idx', run: (db) => marketsWithRestingOrders(db, 'owner-3') },
  { name: 'restingCommitments', sqliteIndex: 'clob_orders_owner_status_idx', run: (db) => restingCommitments(db, 'owner-3') },
  {
    name: 'restingCommitmentsOf',
    sqliteIndex: 'clob_orders_owner_status_idx',
    run: (db) => restingCommitmentsOf(db, ['owner-3', 'owner-4']),
  },
  {
    name: 'batchStartRows',
    run: (db) =>
      batchStartRows(db, { pairs: [{ owner: 'owner-3', nonce: '99999999' }], owners: ['owner-3', 'owner-4'], escrows: [], mints: [] }),
  },
  { name: 'restingOrdersNewestFirst', sqliteIndex: 'clob_orders_resting_owner_idx', run: (db) => restingOrdersNewestFirst(db, 'owner-3') },
  { name: 'ownersWithRestingOrders', run: (db) => ownersWithRestingOrders(db, 'owner-1', 10) },
  { name: 'ownersWithRestingOrdersAmong', run: (db) => ownersWithRestingOrdersAmong(db, ['owner-3', 'owner-4']) },
  { name: 'listOrders by status', run: (db) => listOrders(db, { owner: 'owner-3', statuses: ['open'] }, 50) },
  // Orders: a market's resting orders (were (market_id, status)).
  { name: 'restingOrdersOfMarket', sqliteIndex: 'clob_orders_resting_market_idx', run: (db) => restingOrdersOfMarket(db, 'm3') },
  { name: 'restingByMarket', sqliteIndex: 'clob_orders_resting_market_idx', run: (db) => restingByMarket(db, ['m1', 'm2']) },
  { name: 'restingOrderIds', sqliteIndex: 'clob_orders_resting_market_idx', run: (db) => restingOrderIds(db, 'm1') },
  // Fills: the positions job (was (status, positions_applied, settled_at, seq)).
  { name: 'settledFillsToApply', sqliteIndex: 'clob_fills_positions_waiting_idx', run: (db) => settledFillsToApply(db, 100) },
  { name: 'hasUnappliedSettledFill', run: (db) => hasUnappliedSettledFill(db, 'owner-3', 'm3') },
  // Fills: by batch (was (batch_id), now over fills in a batch).
  { name: 'fillsOfBatch', run: (db) => fillsOfBatch(db, 'batch-3') },
  { name: 'fillsOfBatches', run: (db) => fillsOfBatches(db, ['batch-3', 'batch-4']) },
  { name: 'markRetrying', sqliteIndex: 'clob_fills_in_batch_idx', run: (db) => markRetrying(db, 'batch-5', 1, 'x', NOW) },
  { name: 'endFills', run: (db) => endFills(db, 'batch-6', ['fill-6', 'fill-7'], { status: 'settled', now: NOW }) },
  { name: 'releaseFills', run: (db) => releaseFills(db, 'batch-8', ['fill-8'], null, NOW) },
  // Fills: status-led reads, which could also start from the old positions index.
  { name: 'marketsWithMatchedFills', sqliteIndex: 'clob_fills_status_idx', run: (db) => marketsWithMatchedFills(db, 200) },
  { name: 'failedFills', sqliteIndex: 'clob_fills_status_idx', run: (db) => failedFills(db, 50) },
  { name: 'matchedFillsOfMarket', run: (db) => matchedFillsOfMarket(db, 'm3', 100) },
  { name: 'ordersInFlight', run: (db) => ordersInFlight(db, 'm3') },
  { name: 'stuckFills', run: (db) => stuckFills(db, 'm3', NOW, 100) },
  { name: 'unsettledFillsOf', run: (db) => unsettledFillsOf(db, 'owner-3') },
  { name: 'hasUnsettledFill', run: (db) => hasUnsettledFill(db, 'owner-3', 'm3') },
  { name: 'listOwnerFillsAs', run: (db) => listOwnerFillsAs(db, 'taker', { owner: 'owner-3' }, 50) },
  { name: 'pendingGiveBacks', run: (db) => pendingGiveBacks(db, ['m3'], 100) },
];

/** Records the operation nodes of the statements run through it. */

/** Runs the case and returns each of its statements with its plan's text (SQLite: the details joined by `; `). */
export async function plansOf(db: Kysely<Database>, postgres: boolean, c: PlanCase): Promise<Array<{ sql: string; plan: string }>> {
  const capture = new StatementCapture();
  await c.run(db.withPlugin(capture));
  const out = [];
  for (const node of capture.nodes) {
    const compiled = db.getExecutor().compileQuery(node, { queryId: 'plan' });
    const explain = postgres ? 'explain' : 'explain query plan';
    const { rows } = await db.executeQuery(CompiledQuery.raw(`${explain} ${compiled.sql}`, [...compiled.parameters]));
    const lines = rows.map((r) => String((r as Record<string, unknown>)[postgres ? 'QUERY PLAN' : 'detail']));
    out.push({ sql: compiled.sql, plan: lines.join(postgres ? '\n' : '; ') });
  }
  return out;
}
