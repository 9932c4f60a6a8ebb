/**
 * Databases in sibling PostgreSQL schemas migrate at the same time without seeing each other's
 * migration tables (Kysely's lock table lookup is schema-qualified by db/migrator.ts).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PG_AVAILABLE, POSTGRES_URL, postgresDatabase } from '../helpers/databases.js';

describe.skipIf(!PG_AVAILABLE)('PostgreSQL: concurrent migrations in sibling schemas', () => {
  it('migrates twenty schemas at once', async () => {
    const handles = await Promise.all(Array.from({ length: 20 }, () => postgresDatabase()));
    try {
      for (const h of handles) {
        // Only this handle's own schema: Kysely's introspection lists every schema's tables, so it
        // passed when any one schema had migrated, and failed when a sibling was dropped meanwhile.
        const { rows } = await sql<{ table_name: string }>`
          select table_name from information_schema.tables where table_schema = current_schema()`.execute(h.db);
        expect(rows.map((t) => t.table_name)).toEqual(
          expect.arrayContaining(['markets', 'chain_markets', 'token_accounts', 'kysely_migration']),
        );
      }
    } finally {
      await Promise.all(handles.map((h) => h.close()));
    }
  }, 60_000); // twenty schemas' migrations at once: under a loaded CI machine this passed 30 s

  it('migrates while sibling schemas are created and dropped (another deployment, or another test, on the same server)', async () => {
    // Kysely's migrator lists the tables of every schema (pg_get_serial_sequence on each); a
    // schema dropped during that query fails it with "schema … does not exist" (3F000).
    const churn = new pg.Client({ connectionString: POSTGRES_URL });
    await churn.connect();
    let stop = false;
    const churning = (async () => {
      while (!stop) {
        const schema = `churn_${randomBytes(5).toString('hex')}`;
        await churn.query(`create schema ${schema}; create table ${schema}.t (id serial primary key, a int, b int, c int)`);
        await churn.query(`drop schema ${schema} cascade`);
      }
    })();
    try {
      for (let round = 0; round < 4; round++) {
        const handles = await Promise.all(Array.from({ length: 6 }, () => postgresDatabase()));
        await Promise.all(handles.map((h) => h.close()));
      }
    } finally {
      stop = true;
      await churning;
      await churn.end();
    }
  }, 60_000);
});
