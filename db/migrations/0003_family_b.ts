/**
 * FROZEN. Family B's index of the market program: one row per market account (its raw data,
 * decoded with the program's codec on read, plus the columns queries filter on), one row per
 * SPL token account of an indexed outcome mint, and the market-id reservations that let
 * concurrent creations get distinct ids. Every indexed row carries the slot it was read at.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('chain_markets')
    .addColumn('market_id', 'bigint', (c) => c.primaryKey())
    .addColumn('address', 'text', (c) => c.notNull().unique())
    .addColumn('creator', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('yes_mint', 'text', (c) => c.notNull())
    .addColumn('no_mint', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('slot', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('chain_markets_creator_idx').on('chain_markets').column('creator').execute();
  await db.schema.createIndex('chain_markets_yes_mint_idx').on('chain_markets').column('yes_mint').execute();
  await db.schema.createIndex('chain_markets_no_mint_idx').on('chain_markets').column('no_mint').execute();

  await db.schema
    .createTable('token_accounts')
    .addColumn('address', 'text', (c) => c.primaryKey())
    .addColumn('mint', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('slot', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('token_accounts_owner_idx').on('token_accounts').columns(['owner', 'mint']).execute();
  await db.schema.createIndex('token_accounts_mint_idx').on('token_accounts').column('mint').execute();

  await db.schema
    .createTable('market_id_reservations')
    .addColumn('market_id', 'bigint', (c) => c.primaryKey())
    .addColumn('creator', 'text', (c) => c.notNull())
    .addColumn('reserved_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('market_id_reservations').execute();
  await db.schema.dropTable('token_accounts').execute();
  await db.schema.dropTable('chain_markets').execute();
}
