/**
 * Databases in sibling PostgreSQL schemas migrate at the same time without seeing each other's
 * migration tables (Kysely's lock table lookup is schema-qualified by db/migrator.ts).
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { PG_AVAILABLE, postgresDatabase } from '../helpers/databases.js';

describe.skipIf(!PG_AVAILABLE)('PostgreSQL: concurrent migrations in sibling schemas', () => {
  it('migrates twenty schemas at once', async () => {
    const handles = await Promise.all(Array.from({ length: 20 }, () => postgresDatabase()));
    try {
      for (const h of handles) {
        // Only this handle's own schema: Kysely's introspection lists every schema's tables, so it
        // passed when any one schema had migrated, and failed when a sibling was dropped meanwhile.
        const { rows } = await sql<{ table_name: string }>`
          select table_name from information_schema.tables where table_schema = current_schema()`.execute(h.db);
        expect(rows.map((t) => t.table_name)).toEqual(expect.arrayContaining(['markets', 'chain_markets', 'token_accounts', 'kysely_migration']));
      }
    } finally {
      await Promise.all(handles.map((h) => h.close()));
    }
  });
});
