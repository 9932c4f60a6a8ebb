/**
 * FROZEN once shipped. A fill that fails because one owner could not pay
 * (`failed_insufficient_balance`) gives its quantity back to the other owner's order if that
 * order still rests (docs/family-c.md, "Settlement"):
 * - `give_back_order_id`: the innocent party's order;
 * - `give_back`: `pending` until the market's matcher has dealt with it (the keeper sets it in
 *   the transaction that fails the fill, the matcher ends it in its own batch transaction, so it
 *   happens once whatever crashes), then `restored`, `not_resting` (filled, cancelled, expired or
 *   the market resolved meanwhile) or `not_covered` (its owner's free balance no longer covers
 *   the larger commitment).
 * The partial index keeps the matcher's look for pending ones off the whole fills table.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clob_fills').addColumn('give_back', 'text').execute();
  await db.schema.alterTable('clob_fills').addColumn('give_back_order_id', 'text').execute();
  await sql`create index clob_fills_give_back_pending_idx on clob_fills (market_id) where give_back = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists clob_fills_give_back_pending_idx`.execute(db);
  await db.schema.alterTable('clob_fills').dropColumn('give_back_order_id').execute();
  await db.schema.alterTable('clob_fills').dropColumn('give_back').execute();
}
