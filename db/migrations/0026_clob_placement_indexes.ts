/**
 * FROZEN once shipped. Fewer index writes per placed order and fill (issue 31): SQLite's
 * secondary-index writes were about half of an order's insert and a third of the commit's CPU
 * (docs/performance.md, fourteenth pass). Every read that used a dropped index still reads an
 * index on both databases (test/db/placement-index-plans.test.ts):
 * - `clob_orders_status_expiry_idx` (status, expiry): no query filters on expiry (the book expires
 *   orders in memory); its one reader, the owners with resting orders (`ownersWithRestingOrders`),
 *   reads 0025's partial index of resting orders by owner instead, in its order;
 * - `clob_orders_market_status_idx` (market_id, status) becomes `clob_orders_resting_market_idx`,
 *   (market_id) over resting orders only: every reader asks for a market's resting orders, and an
 *   order that never rests (a taker filled at once, half the orders of the placement bench) or
 *   stops resting writes no entry or drops it (their status written inline: SQLite uses a partial
 *   index only when the query's own terms imply its condition, and a bound parameter never does);
 * - `clob_fills_positions_pending_idx` (status, positions_applied, settled_at, seq) becomes
 *   `clob_fills_positions_waiting_idx`, the same columns over settled fills not yet applied only: the
 *   positions job's two reads (status inline, as above), and a matched fill (every new one) writes
 *   no entry. The columns stay: SQLite, without statistics, counts a partial index as big as the
 *   table and preferred (status, matched_at) and a sort to a partial index on (settled_at, seq);
 * - `clob_fills_batch_idx` (batch_id) becomes `clob_fills_in_batch_idx` over fills in a batch:
 *   every reader names a batch (`batch_id = ?` implies not null on both databases), and a new
 *   fill, in none, writes no entry.
 */
import { sql, type Kysely } from 'kysely';

const RESTING = sql`status in ('open', 'partially_filled')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('clob_orders_status_expiry_idx').execute();
  await sql`create index clob_orders_resting_market_idx on clob_orders (market_id) where ${RESTING}`.execute(db);
  await db.schema.dropIndex('clob_orders_market_status_idx').execute();
  await sql`create index clob_fills_positions_waiting_idx on clob_fills (status, positions_applied, settled_at, seq)
    where status = 'settled' and positions_applied = 0`.execute(db);
  await db.schema.dropIndex('clob_fills_positions_pending_idx').execute();
  await sql`create index clob_fills_in_batch_idx on clob_fills (batch_id) where batch_id is not null`.execute(db);
  await db.schema.dropIndex('clob_fills_batch_idx').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('clob_fills_batch_idx').on('clob_fills').column('batch_id').execute();
  await db.schema.dropIndex('clob_fills_in_batch_idx').ifExists().execute();
  await db.schema
    .createIndex('clob_fills_positions_pending_idx')
    .on('clob_fills')
    .columns(['status', 'positions_applied', 'settled_at', 'seq'])
    .execute();
  await db.schema.dropIndex('clob_fills_positions_waiting_idx').ifExists().execute();
  await db.schema.createIndex('clob_orders_market_status_idx').on('clob_orders').columns(['market_id', 'status']).execute();
  await db.schema.dropIndex('clob_orders_resting_market_idx').ifExists().execute();
  await db.schema.createIndex('clob_orders_status_expiry_idx').on('clob_orders').columns(['status', 'expiry']).execute();
}
