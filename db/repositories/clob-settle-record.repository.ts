/**
 * The record of a keeper group (settle-group.ts, step 2): its batches and their fills' places, its
 * fills moved to `settling` in their batches, and its outbound rows with the built bytes, in the
 * caller's transaction, committed before any send.
 *
 * On PostgreSQL that record is one statement: the fills are locked in id order by a materialized
 * CTE (`FOR NO KEY UPDATE`, sorted as lockFills sorts them: db/row-locks.ts), the UPDATE moves only
 * locked rows, and the inserts are of new rows only (no other writer's row is locked by them). It
 * was five round trips between `begin` and `commit` (the locks, the batches with their places, the
 * move, the outbound rows), each a wait for the server on the drain's one path (issue 31, fifteenth
 * pass: a PostgreSQL drain's daemon was idle 24 % of it, a SQLite drain's 5 %). SQLite runs the
 * statements one by one: calls in the daemon's own process.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../schema.js';
import { isPostgresDb, lockFills, lockOrder } from '../row-locks.js';
import { batchRows, insertBatches, placeRows } from './clob-settle-group.repository.js';
import type { NewBatch } from './clob-settlement.repository.js';
import { insertOutbounds, outboundValues, type NewOutbound } from './outbound-transactions.repository.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Fills, places or rows a single statement carries here (the lock list, the CASE and the places: ~4 parameters a fill). */
const ONE_STATEMENT = 1000;

/** Each fill's batch: the batch itself when there is one, else a `CASE id WHEN …` (portable to both databases). */
function batchOf(batches: ReadonlyArray<{ batchId: string; fillIds: readonly string[] }>) {
  return batches.length === 1
    ? batches[0]!.batchId
    : sql<string>`case id ${sql.join(
        batches.flatMap((b) => b.fillIds.map((id) => sql`when ${id} then ${b.batchId}`)),
        sql` `,
      )} end`;
}

/** A group's fills to their batches in one UPDATE, not one a batch; the count equals their number only when each was still matched. */
export async function moveGroupFills(db: Db, batches: ReadonlyArray<{ batchId: string; fillIds: readonly string[] }>, now: string) {
  const fillIds = batches.flatMap((b) => b.fillIds);
  if (fillIds.length === 0) return 0;
  const res = await db
    .updateTable('clob_fills')
    .set({ status: 'settling', batch_id: batchOf(batches), updated_at: now })
    .where('id', 'in', fillIds)
    .where('status', '=', 'matched')
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/**
 * Records a group (see the module comment); returns how many fills moved. Fewer than the group's
 * fills: a concurrent planner took some, and the caller rolls its transaction back.
 */
export async function recordGroup(
  trx: Transaction<Database>,
  batches: readonly NewBatch[],
  outbounds: readonly NewOutbound[],
  now: string,
): Promise<number> {
  const fillIds = batches.flatMap((b) => b.fillIds);
  const moves = batches.map((b) => ({ batchId: b.id, fillIds: b.fillIds }));
  if (!isPostgresDb(trx) || fillIds.length === 0 || fillIds.length > ONE_STATEMENT || outbounds.length === 0) {
    // Every fill of the group in one order first (a no-op on SQLite), then each kind of row.
    await lockFills(trx, fillIds);
    await insertBatches(trx, batches);
    const moved = await moveGroupFills(trx, moves, now);
    await insertOutbounds(trx, outbounds);
    return moved;
  }
  // The inserts are CTEs no query reads: PostgreSQL runs each of them to its end. The UPDATE writes
  // only rows `locked` returned, and `locked` takes its locks in id order as it returns them: every
  // wait of this statement is one of lockFills's sorted waits (test/db/settle-record.test.ts).
  const row = await trx
    .with(
      (cte) => cte('locked').materialized(),
      (q) =>
        q
          .selectFrom('clob_fills')
          .select('id')
          .where('id', 'in', lockOrder(fillIds))
          .orderBy(sql`id collate "C"`)
          .forNoKeyUpdate(),
    )
    .with('moved', (q) =>
      q
        .updateTable('clob_fills')
        .set({ status: 'settling', batch_id: batchOf(moves), updated_at: now })
        .where('id', 'in', (eb) => eb.selectFrom('locked').select('id'))
        // The ids again, as values: the plan then reads the fills by their key, not the table whole.
        .where('id', 'in', fillIds)
        .where('status', '=', 'matched')
        .returning('id'),
    )
    .with('batches', (q) => q.insertInto('clob_settlement_batches').values(batchRows(batches)))
    .with('places', (q) => q.insertInto('clob_batch_fills').values(placeRows(batches)))
    .with('outbounds', (q) => q.insertInto('outbound_transactions').values(outbounds.map(outboundValues)))
    .selectFrom('moved')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
