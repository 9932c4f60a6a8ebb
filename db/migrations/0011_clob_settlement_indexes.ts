/**
 * FROZEN once shipped. Two reads of the settlement keeper walked the fills table's history:
 * - the planner's next matched fills of a market (`market_id = ? and status = 'matched' order by
 *   seq`) went through the (market_id, seq) key and skipped every settled fill of the market;
 * - the positions job's settled fills not yet applied (`status = 'settled' and positions_applied
 *   = 0 order by settled_at, seq`) read every settled fill and sorted them.
 * Each becomes a range of its own index, in the order asked for: the work is the rows returned.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('clob_fills_market_status_seq_idx').on('clob_fills').columns(['market_id', 'status', 'seq']).execute();
  await db.schema
    .createIndex('clob_fills_positions_pending_idx')
    .on('clob_fills')
    .columns(['status', 'positions_applied', 'settled_at', 'seq'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('clob_fills_positions_pending_idx').ifExists().execute();
  await db.schema.dropIndex('clob_fills_market_status_seq_idx').ifExists().execute();
}
