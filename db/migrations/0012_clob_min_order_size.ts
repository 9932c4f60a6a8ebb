/**
 * FROZEN once shipped. Each orderbook market has a minimum order size (`min_order_size`, outcome
 * token raw units): an order below it is refused, so one small deposit cannot create hundreds of
 * fills (issue 25, "Dust"). Existing markets get the default, one token (1,000,000 raw).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('clob_markets')
    .addColumn('min_order_size', 'bigint', (c) => c.notNull().defaultTo(1_000_000))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clob_markets').dropColumn('min_order_size').execute();
}
