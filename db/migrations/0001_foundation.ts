/**
 * FROZEN: never edit a migration that has shipped; add a new one.
 * Portable DDL only (types and constraints that SQLite and PostgreSQL both accept).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('daemon_nodes')
    .addColumn('node_id', 'text', (c) => c.primaryKey())
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('hostname', 'text', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('last_beat_at', 'text', (c) => c.notNull())
    .addColumn('beats', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('markets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('chain_market_id', 'bigint', (c) => c.unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('category', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('image_urls', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text')
    .addColumn('creator', 'text')
    .addColumn('yes_ticker', 'text', (c) => c.notNull().defaultTo('YES'))
    .addColumn('no_ticker', 'text', (c) => c.notNull().defaultTo('NO'))
    .addColumn('yes_mint', 'text')
    .addColumn('no_mint', 'text')
    .addColumn('end_date', 'text')
    .addColumn('resolved_at', 'text')
    .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema.createIndex('markets_status_idx').on('markets').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('markets_creator_idx').on('markets').column('creator').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('markets').execute();
  await db.schema.dropTable('daemon_nodes').execute();
}
