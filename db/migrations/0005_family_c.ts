/**
 * FROZEN once landed. Family C, the orderbook:
 * - `clob_markets`: the orderbook terms of a catalog market (`markets.kind = 'clob'`): its
 *   exchange-program market account, vault, rules, and the slot of the last indexed read;
 * - `clob_wallets`: the smart wallets the service knows (owner → escrow PDA and its USDC
 *   account), so the indexer can watch their token accounts;
 * - `clob_orders` and `clob_fills`: signed orders as the matcher accepted them and the fills it
 *   matched, written in one database transaction per placement (the book is rebuilt from them);
 * - `clob_settlement_batches` / `clob_batch_fills`: which persisted outbound transaction carries
 *   which fills (a fill can travel in several batches over time when one is rebuilt);
 * - `clob_positions`: positions and PnL per owner, market and outcome, computed from settled
 *   fills and redemptions by the positions job.
 * Raw amounts are bigint; a u64 order nonce is text (it may exceed a signed int8).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('clob_markets')
    .addColumn('market_id', 'text', (c) => c.primaryKey())
    .addColumn('market_pubkey', 'text', (c) => c.notNull().unique())
    .addColumn('vault', 'text', (c) => c.notNull())
    .addColumn('resolution_rules', 'text', (c) => c.notNull())
    .addColumn('image_url', 'text', (c) => c.notNull())
    .addColumn('lookup_table', 'text')
    .addColumn('setup_outbound_id', 'text')
    .addColumn('slot', 'bigint', (c) => c.notNull())
    .addColumn('matcher_epoch', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('matcher_node', 'text')
    .execute();

  await db.schema
    .createTable('clob_wallets')
    .addColumn('owner', 'text', (c) => c.primaryKey())
    .addColumn('escrow', 'text', (c) => c.notNull().unique())
    .addColumn('escrow_usdc', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('clob_orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('market_id', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('side', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('price_bps', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'bigint', (c) => c.notNull())
    .addColumn('remaining', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('order_type', 'text', (c) => c.notNull())
    .addColumn('time_in_force', 'text', (c) => c.notNull())
    .addColumn('post_only', 'integer', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('expiry', 'bigint', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('notional', 'bigint', (c) => c.notNull())
    .addColumn('usdc', 'bigint', (c) => c.notNull())
    .addColumn('committed', 'bigint', (c) => c.notNull())
    .addColumn('cancel_reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('clob_orders_owner_nonce_uq', ['owner', 'nonce'])
    .execute();
  await db.schema.createIndex('clob_orders_owner_idx').on('clob_orders').columns(['owner', 'created_at']).execute();
  await db.schema.createIndex('clob_orders_owner_status_idx').on('clob_orders').columns(['owner', 'status']).execute();
  await db.schema.createIndex('clob_orders_market_status_idx').on('clob_orders').columns(['market_id', 'status']).execute();
  await db.schema.createIndex('clob_orders_status_expiry_idx').on('clob_orders').columns(['status', 'expiry']).execute();

  await db.schema
    .createTable('clob_fills')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('market_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('maker_order_id', 'text', (c) => c.notNull())
    .addColumn('taker_order_id', 'text', (c) => c.notNull())
    .addColumn('maker_owner', 'text', (c) => c.notNull())
    .addColumn('taker_owner', 'text', (c) => c.notNull())
    .addColumn('taker_side', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('price_bps', 'integer', (c) => c.notNull())
    .addColumn('maker_side', 'text', (c) => c.notNull())
    .addColumn('maker_outcome', 'text', (c) => c.notNull())
    .addColumn('maker_price_bps', 'integer', (c) => c.notNull())
    .addColumn('fill_type', 'text', (c) => c.notNull())
    .addColumn('quantity', 'bigint', (c) => c.notNull())
    .addColumn('usdc_amount', 'bigint', (c) => c.notNull())
    .addColumn('maker_usdc', 'bigint', (c) => c.notNull())
    .addColumn('taker_fee', 'bigint', (c) => c.notNull())
    .addColumn('maker_rebate', 'bigint', (c) => c.notNull())
    .addColumn('protocol_fee', 'bigint', (c) => c.notNull())
    .addColumn('rounding_dust', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('retry_count', 'integer', (c) => c.notNull())
    .addColumn('failure_reason', 'text')
    .addColumn('batch_id', 'text')
    .addColumn('settle_tx', 'text')
    .addColumn('positions_applied', 'integer', (c) => c.notNull())
    .addColumn('matched_at', 'text', (c) => c.notNull())
    .addColumn('settled_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('clob_fills_market_seq_uq', ['market_id', 'seq'])
    .execute();
  // (owner, status) for what unsettled fills hold; (owner, matched_at) for an owner's fills, newest first.
  await db.schema.createIndex('clob_fills_maker_status_idx').on('clob_fills').columns(['maker_owner', 'status']).execute();
  await db.schema.createIndex('clob_fills_taker_status_idx').on('clob_fills').columns(['taker_owner', 'status']).execute();
  await db.schema.createIndex('clob_fills_maker_time_idx').on('clob_fills').columns(['maker_owner', 'matched_at']).execute();
  await db.schema.createIndex('clob_fills_taker_time_idx').on('clob_fills').columns(['taker_owner', 'matched_at']).execute();
  await db.schema.createIndex('clob_fills_maker_order_idx').on('clob_fills').column('maker_order_id').execute();
  await db.schema.createIndex('clob_fills_taker_order_idx').on('clob_fills').column('taker_order_id').execute();
  await db.schema.createIndex('clob_fills_status_idx').on('clob_fills').columns(['status', 'matched_at']).execute();

  // What unsettled fills hold per owner and market, kept by the matcher (adds when it writes a
  // fill) and the keeper (subtracts when a fill ends), so a funds check never scans fills.
  await db.schema
    .createTable('clob_owner_holds')
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('market_id', 'text', (c) => c.notNull())
    .addColumn('usdc', 'bigint', (c) => c.notNull())
    .addColumn('yes_tokens', 'bigint', (c) => c.notNull())
    .addColumn('no_tokens', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('clob_owner_holds_pk', ['owner', 'market_id'])
    .execute();

  await db.schema
    .createTable('clob_settlement_batches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('market_id', 'text', (c) => c.notNull())
    .addColumn('outbound_id', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('fill_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('clob_batches_status_idx').on('clob_settlement_batches').columns(['status', 'created_at']).execute();

  await db.schema
    .createTable('clob_batch_fills')
    .addColumn('batch_id', 'text', (c) => c.notNull())
    .addColumn('fill_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('clob_batch_fills_pk', ['batch_id', 'fill_id'])
    .execute();
  await db.schema.createIndex('clob_batch_fills_fill_idx').on('clob_batch_fills').column('fill_id').execute();

  await db.schema
    .createTable('clob_positions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('market_id', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('net_quantity', 'bigint', (c) => c.notNull())
    .addColumn('total_cost', 'bigint', (c) => c.notNull())
    .addColumn('total_proceeds', 'bigint', (c) => c.notNull())
    .addColumn('total_fees', 'bigint', (c) => c.notNull())
    .addColumn('realized_pnl', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('clob_positions_owner_market_outcome_uq', ['owner', 'market_id', 'outcome'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'clob_owner_holds',
    'clob_positions',
    'clob_batch_fills',
    'clob_settlement_batches',
    'clob_fills',
    'clob_orders',
    'clob_wallets',
    'clob_markets',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
