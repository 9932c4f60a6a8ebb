/**
 * FROZEN once shipped. An owner's resting orders (`restingOrdersNewestFirst`, the coverage check
 * run whenever the owner's wallet changes, and `ownersWithRestingOrders`) asked for
 * `status in ('open', 'partially_filled')` ordered by `created_at`: SQLite chose the
 * (owner, created_at) index for the order and read every order the owner ever placed, filled and
 * cancelled ones included, to keep the few still resting (2 ms a check for a trader with 2,000
 * orders in the placement bench, growing with the history, synchronous in the event loop). A
 * partial index over resting orders only, in the query's order, makes the work the rows returned
 * on both databases. Issue 31.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('clob_orders_resting_owner_idx')
    .on('clob_orders')
    .columns(['owner', 'created_at', 'seq', 'id'])
    .where(sql.ref('status'), 'in', [sql.lit('open'), sql.lit('partially_filled')])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('clob_orders_resting_owner_idx').ifExists().execute();
}
