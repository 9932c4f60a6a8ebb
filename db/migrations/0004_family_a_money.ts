/**
 * FROZEN once shipped. Family A money that is not honoured (issue 8): every verified inbound
 * transfer to a platform wallet gets a row, keyed UNIQUE by (signature, transfer_index), whose
 * state says what became of it (held, honoured, refunded, credited, claimed, manual). Honouring a
 * payment and refunding it both move that one row out of `held` with a compare-and-set inside
 * the database transaction that records their effect, so exactly one of them can win.
 *
 * Outbound transactions learn to wait for funds: a payout a platform wallet cannot cover yet is
 * not an attempt; it records when the wait began, what is missing, and when to look again.
 *
 * Lookups the accounting needs: option wallet → market, outcome mint → market.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('family_a_inbound_transfers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('signature', 'text', (c) => c.notNull())
    // The credited account's index among the transaction's account keys (meta.postTokenBalances'
    // accountIndex; for SOL, the wallet's own index): one credit per account per transaction.
    .addColumn('transfer_index', 'integer', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('asset', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('amount_raw', 'bigint', (c) => c.notNull())
    .addColumn('honoured_raw', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('sender_account', 'text')
    .addColumn('sender_owner', 'text')
    .addColumn('market_id', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('refund_after', 'text')
    .addColumn('outbound_id', 'text')
    .addColumn('block_time', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('family_a_inbound_transfers_key_uq', ['signature', 'transfer_index'])
    .execute();
  await db.schema.createIndex('family_a_inbound_state_idx').on('family_a_inbound_transfers').columns(['state', 'refund_after']).execute();
  await db.schema
    .createIndex('family_a_inbound_credit_idx')
    .on('family_a_inbound_transfers')
    .columns(['market_id', 'sender_owner', 'state'])
    .execute();

  for (const [column, type] of [
    ['awaiting_funds_since', 'text'],
    ['shortfall', 'text'],
    ['next_attempt_at', 'text'],
  ] as const) {
    await db.schema.alterTable('outbound_transactions').addColumn(column, type).execute();
  }
  await db.schema
    .alterTable('outbound_transactions')
    .addColumn('funding_checks', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema.createIndex('family_a_markets_yes_wallet_idx').on('family_a_markets').column('yes_wallet').execute();
  await db.schema.createIndex('family_a_markets_no_wallet_idx').on('family_a_markets').column('no_wallet').execute();
  await db.schema.createIndex('markets_yes_mint_idx').on('markets').column('yes_mint').execute();
  await db.schema.createIndex('markets_no_mint_idx').on('markets').column('no_mint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [
    'markets_no_mint_idx',
    'markets_yes_mint_idx',
    'family_a_markets_no_wallet_idx',
    'family_a_markets_yes_wallet_idx',
  ]) {
    await db.schema.dropIndex(index).execute();
  }
  for (const column of ['funding_checks', 'next_attempt_at', 'shortfall', 'awaiting_funds_since']) {
    await db.schema.alterTable('outbound_transactions').dropColumn(column).execute();
  }
  await db.schema.dropTable('family_a_inbound_transfers').execute();
}
