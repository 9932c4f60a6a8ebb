/**
 * FROZEN: never edit a migration that has shipped; add a new one.
 * Family A (slug markets paid by x402) and the shared outbound-transaction ledger.
 *
 * Portable DDL except the full-text index, which is dialect-specific by nature. The dialect is
 * detected from the Kysely adapter (`db.getExecutor().adapter`): PostgresAdapter → a GIN index on
 * to_tsvector('simple', name || ' ' || description); otherwise SQLite → an external-content FTS5
 * table over `markets` kept in sync by triggers (so Family B's inserts are searchable too).
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('family_a_markets')
    .addColumn('market_id', 'text', (c) => c.primaryKey().references('markets.id'))
    .addColumn('target_price_raw', 'bigint', (c) => c.notNull())
    .addColumn('market_limit', 'bigint', (c) => c.notNull())
    .addColumn('yes_wallet', 'text', (c) => c.notNull())
    .addColumn('no_wallet', 'text', (c) => c.notNull())
    .addColumn('creation_fee_usdc_raw', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('creation_fee_lamports', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('payment_deadline', 'text')
    .execute();

  await db.schema
    .createTable('family_a_quotes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('market_id', 'text', (c) => c.notNull())
    .addColumn('wallet', 'text', (c) => c.notNull())
    .addColumn('side', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount_raw', 'bigint', (c) => c.notNull())
    .addColumn('issued_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('family_a_quotes_lookup_idx')
    .on('family_a_quotes')
    .columns(['market_id', 'wallet', 'side', 'kind', 'issued_at'])
    .execute();

  await db.schema
    .createTable('outbound_transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('signature', 'text')
    .addColumn('raw_tx', 'text')
    .addColumn('blockhash', 'text')
    .addColumn('last_valid_block_height', 'bigint')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('outbound_transactions_status_idx').on('outbound_transactions').columns(['status', 'updated_at']).execute();

  // Every verified payment, sell transfer and claim transfer: the signature is unique, so one
  // on-chain transfer is honoured at most once whatever the concurrency.
  await db.schema
    .createTable('family_a_payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('signature', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('market_id', 'text', (c) => c.notNull())
    .addColumn('wallet', 'text', (c) => c.notNull())
    .addColumn('side', 'text')
    .addColumn('paid_raw', 'bigint', (c) => c.notNull())
    .addColumn('deliver_raw', 'bigint', (c) => c.notNull())
    .addColumn('quote_id', 'text')
    .addColumn('outbound_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('family_a_claims')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('market_id', 'text', (c) => c.notNull())
    .addColumn('wallet', 'text', (c) => c.notNull())
    .addColumn('transfer_signature', 'text', (c) => c.notNull().unique())
    .addColumn('token_amount_raw', 'bigint', (c) => c.notNull())
    .addColumn('payout_raw', 'bigint', (c) => c.notNull())
    .addColumn('outbound_id', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('family_a_claims_market_wallet_uq', ['market_id', 'wallet'])
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();

  // The default list order (newest first) over the whole catalog.
  await db.schema.createIndex('markets_created_idx').on('markets').columns(['created_at', 'id']).execute();

  if (isPostgres(db)) {
    await sql`create index markets_search_idx on markets using gin (to_tsvector('simple', name || ' ' || description))`.execute(db);
    return;
  }
  await sql`create virtual table markets_fts using fts5(name, description, content='markets', content_rowid='rowid')`.execute(db);
  await sql`insert into markets_fts(rowid, name, description) select rowid, name, description from markets`.execute(db);
  await sql`create trigger markets_fts_ai after insert on markets begin
    insert into markets_fts(rowid, name, description) values (new.rowid, new.name, new.description); end`.execute(db);
  await sql`create trigger markets_fts_ad after delete on markets begin
    insert into markets_fts(markets_fts, rowid, name, description) values ('delete', old.rowid, old.name, old.description); end`.execute(
    db,
  );
  await sql`create trigger markets_fts_au after update of name, description on markets begin
    insert into markets_fts(markets_fts, rowid, name, description) values ('delete', old.rowid, old.name, old.description);
    insert into markets_fts(rowid, name, description) values (new.rowid, new.name, new.description); end`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index if exists markets_search_idx`.execute(db);
  } else {
    for (const t of ['markets_fts_ai', 'markets_fts_ad', 'markets_fts_au']) await sql`drop trigger if exists ${sql.raw(t)}`.execute(db);
    await sql`drop table if exists markets_fts`.execute(db);
  }
  await db.schema.dropIndex('markets_created_idx').execute();
  for (const t of ['api_keys', 'family_a_claims', 'family_a_payments', 'outbound_transactions', 'family_a_quotes', 'family_a_markets']) {
    await db.schema.dropTable(t).execute();
  }
}
