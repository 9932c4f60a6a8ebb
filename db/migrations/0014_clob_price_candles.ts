/**
 * FROZEN once shipped. Price history (docs/family-c.md, "Price history"):
 * - `clob_price_candles`: one row per market, interval (60, 300, 3600 or 86400 seconds) and
 *   candle start (unix seconds), prices in YES basis points (NO's are 10000 − YES's), volume in
 *   outcome-token raw units, and the first and last fill `seq` the candle holds (open and close
 *   follow match order, not the clock);
 * - `clob_fills.candle_state`: what the candles count of each fill (0 not seen yet, 1 counted,
 *   2 left out because it failed). The candles job compares it with the fill's status; the
 *   partial index holds exactly the fills where they disagree, so the job's work is a range of
 *   its own index (existing fills start at 0: the first run counts them, a backfill).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('clob_price_candles')
    .addColumn('market_id', 'text', (c) => c.notNull())
    .addColumn('interval_seconds', 'integer', (c) => c.notNull())
    .addColumn('start_unix', 'bigint', (c) => c.notNull())
    .addColumn('open_bps', 'integer', (c) => c.notNull())
    .addColumn('high_bps', 'integer', (c) => c.notNull())
    .addColumn('low_bps', 'integer', (c) => c.notNull())
    .addColumn('close_bps', 'integer', (c) => c.notNull())
    .addColumn('volume', 'bigint', (c) => c.notNull())
    .addColumn('open_seq', 'bigint', (c) => c.notNull())
    .addColumn('close_seq', 'bigint', (c) => c.notNull())
    .addColumn('fills', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('clob_price_candles_pk', ['market_id', 'interval_seconds', 'start_unix'])
    .execute();
  await db.schema
    .alterTable('clob_fills')
    .addColumn('candle_state', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`create index clob_fills_candle_work_idx on clob_fills (market_id, seq) where candle_state = 0
    or (candle_state = 1 and status in ('failed', 'failed_insufficient_balance'))
    or (candle_state = 2 and status not in ('failed', 'failed_insufficient_balance'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists clob_fills_candle_work_idx`.execute(db);
  await db.schema.alterTable('clob_fills').dropColumn('candle_state').execute();
  await db.schema.dropTable('clob_price_candles').ifExists().execute();
}
