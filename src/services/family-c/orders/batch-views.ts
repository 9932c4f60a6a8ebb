/**
 * The orders and fills one matcher batch touched, as the REST routes present them
 * (`GET /v2/clob/orders/{id}`, `GET /v2/clob/fills/{id}`): the same rows through the same
 * presenters, as they are the moment the batch commits. Each object is built once per batch,
 * however many events and recipients carry it.
 *
 * What the batch inserted (its new orders and its fills) is presented from the rows it wrote:
 * nothing else can have changed them inside its transaction, and a new order's only fills are this
 * batch's (all `matched`). Reading them back cost a statement and the parsing of every row in each
 * batch (issue 31). Orders that existed before (makers filled, orders cancelled or given a quantity
 * back) are read inside the batch's transaction after its writes, with their fills' tally, in one
 * statement.
 */
import type { Kysely, Transaction } from 'kysely';
import type { FillRow, OrderFillTally } from '../../../../db/repositories/clob-fills.repository.js';
import { ordersWithFillTallies, type OrderRow } from '../../../../db/repositories/clob-orders.repository.js';
import type { Database } from '../../../../db/schema.js';
import { presentFill, presentOrder, type FillView, type OrderView } from './order.presenter.js';

export interface BatchViews {
  orders: ReadonlyMap<string, OrderView>;
  fills: ReadonlyMap<string, FillView>;
}

/**
 * What a batch wrote: the rows it inserted, as stored and already normalized (money columns
 * bigints, the others numbers: normalizeOrder and normalizeFill would copy them unchanged), and
 * the ids of the existing orders it changed.
 */
export interface BatchWritten {
  inserted: readonly OrderRow[];
  updatedIds: readonly string[];
  fills: readonly FillRow[];
}

/** Ids per query: ordersWithFillTallies binds each three times, under SQLite's 32,766 parameters with room to spare. */
const CHUNK = 500;

function chunks<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}

/** A new order's tally: this batch's fills of it, every one `matched` (unsettled), none failed. */
function newOrderTallies(fills: readonly FillRow[]): Map<string, OrderFillTally> {
  const tallies = new Map<string, OrderFillTally>();
  for (const f of fills) {
    for (const id of [f.maker_order_id, f.taker_order_id]) {
      const t = tallies.get(id) ?? { unsettled: 0, failedQuantity: 0n };
      t.unsettled++;
      tallies.set(id, t);
    }
  }
  return tallies;
}

export async function presentBatch(db: Kysely<Database> | Transaction<Database>, written: BatchWritten): Promise<BatchViews> {
  const orders = new Map<string, OrderView>();
  const fills = new Map<string, FillView>();
  const tallies = newOrderTallies(written.fills);
  // The batch's own rows already hold bigints and numbers (placement-writer.ts): not copied again.
  for (const row of written.inserted) orders.set(row.id, presentOrder(row, tallies.get(row.id)));
  for (const part of chunks(written.updatedIds)) {
    for (const { row, tally } of await ordersWithFillTallies(db, part)) orders.set(row.id, presentOrder(row, tally));
  }
  for (const row of written.fills) fills.set(row.id, presentFill(row));
  return { orders, fills };
}
