/**
 * FROZEN once shipped. The catalog at scale (issue 15 item 4):
 * - `markets_status_order_idx` (status, created_at, id): a status-filtered list is read in its
 *   order from the index, with no sort of every matching row (a page of `status=resolved` at
 *   offset 20,000 took 47 ms at 100k markets, sorting 33k rows), and its keyset pages seek;
 * - SQLite: the FTS5 table gains prefix indexes for 1- to 4-character prefixes. FTS5 answers a
 *   prefix query without one by merging the doclists of every term with that prefix into memory
 *   before returning a row (`w*` at 100k markets: 400 terms, every market, 40-67 ms, whatever
 *   the LIMIT); with one, the prefix is a single term read lazily in rowid order and a page
 *   stops after its rows (0.8 ms). Longer prefixes match few terms; their doclists are still
 *   merged (a 5-letter prefix found in every market: ~4 ms at 100k). Costs about 3.5x the FTS
 *   index's size. Rebuilt from `markets` (external content), so nothing is lost;
 * - `catalog_version`: one row whose counter triggers bump on every write to `markets` and
 *   `family_a_markets` (statement-level on PostgreSQL), in the writer's own transaction. API
 *   processes keep list/search pages and totals while the version they were read at is current:
 *   exact (no time-based staleness) and across processes, for one indexed read per request.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './0002_family_a.js';

const TRIGGERS = ['markets_fts_ai', 'markets_fts_ad', 'markets_fts_au'];

async function recreateFts(db: Kysely<unknown>, options: string): Promise<void> {
  for (const t of TRIGGERS) await sql`drop trigger if exists ${sql.raw(t)}`.execute(db);
  await sql`drop table if exists markets_fts`.execute(db);
  await sql`create virtual table markets_fts using fts5(name, description, content='markets', content_rowid='rowid'${sql.raw(options)})`.execute(
    db,
  );
  await sql`insert into markets_fts(markets_fts) values ('rebuild')`.execute(db);
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

const VERSIONED = ['markets', 'family_a_markets'];

async function createCatalogVersion(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('catalog_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into catalog_version (id, version) values (1, 0)`.execute(db);
  if (isPostgres(db)) {
    await sql`create function bump_catalog_version() returns trigger language plpgsql as $$
      begin update catalog_version set version = version + 1 where id = 1; return null; end $$`.execute(db);
    for (const t of VERSIONED) {
      await sql`create trigger ${sql.raw(`${t}_version`)} after insert or update or delete on ${sql.raw(t)}
        for each statement execute function bump_catalog_version()`.execute(db);
    }
    return;
  }
  for (const t of VERSIONED) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql`create trigger ${sql.raw(`${t}_version_${event}`)} after ${sql.raw(event)} on ${sql.raw(t)} begin
        update catalog_version set version = version + 1 where id = 1; end`.execute(db);
    }
  }
}

async function dropCatalogVersion(db: Kysely<unknown>): Promise<void> {
  for (const t of VERSIONED) {
    if (isPostgres(db)) await sql`drop trigger if exists ${sql.raw(`${t}_version`)} on ${sql.raw(t)}`.execute(db);
    else
      for (const event of ['insert', 'update', 'delete']) await sql`drop trigger if exists ${sql.raw(`${t}_version_${event}`)}`.execute(db);
  }
  if (isPostgres(db)) await sql`drop function if exists bump_catalog_version()`.execute(db);
  await db.schema.dropTable('catalog_version').execute();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('markets_status_order_idx').on('markets').columns(['status', 'created_at', 'id']).execute();
  if (!isPostgres(db)) await recreateFts(db, ", prefix='1 2 3 4'");
  await createCatalogVersion(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropCatalogVersion(db);
  if (!isPostgres(db)) await recreateFts(db, '');
  await db.schema.dropIndex('markets_status_order_idx').execute();
}
