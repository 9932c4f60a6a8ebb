/**
 * The orders and fills one matcher batch touched, as the REST routes present them
 * (`GET /v2/clob/orders/{id}`, `GET /v2/clob/fills/{id}`): the same rows through the same
 * presenters, read inside the batch's transaction after its writes, so they are what REST answers
 * the moment the batch commits. Each object is built once per batch, however many events and
 * recipients carry it.
 */
import type { Kysely, Transaction } from 'kysely';
import { fillsByIds, fillTallyByOrder } from '../../../../db/repositories/clob-fills.repository.js';
import { ordersByIds } from '../../../../db/repositories/clob-orders.repository.js';
import type { Database } from '../../../../db/schema.js';
import { presentFill, presentOrder, type FillView, type OrderView } from './order.presenter.js';

export interface BatchViews {
  orders: ReadonlyMap<string, OrderView>;
  fills: ReadonlyMap<string, FillView>;
}

/** Ids per query: fillTallyByOrder binds each twice, under SQLite's 32,766 parameters with room to spare. */
const CHUNK = 500;

function chunks<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}

export async function presentBatch(
  db: Kysely<Database> | Transaction<Database>,
  ids: { orderIds: readonly string[]; fillIds: readonly string[] },
): Promise<BatchViews> {
  const orders = new Map<string, OrderView>();
  const fills = new Map<string, FillView>();
  for (const part of chunks(ids.orderIds)) {
    const [rows, tallies] = await Promise.all([ordersByIds(db, part), fillTallyByOrder(db, part)]);
    for (const row of rows) orders.set(row.id, presentOrder(row, tallies.get(row.id)));
  }
  for (const part of chunks(ids.fillIds)) {
    for (const row of await fillsByIds(db, part)) fills.set(row.id, presentFill(row));
  }
  return { orders, fills };
}
