/**
 * Databases in sibling PostgreSQL schemas migrate at the same time without seeing each other's
 * migration tables (Kysely's lock table lookup is schema-qualified by db/migrator.ts).
 */
import { describe, expect, it } from 'vitest';
import { PG_AVAILABLE, postgresDatabase } from '../helpers/databases.js';

describe.skipIf(!PG_AVAILABLE)('PostgreSQL: concurrent migrations in sibling schemas', () => {
  it('migrates twenty schemas at once', async () => {
    const handles = await Promise.all(Array.from({ length: 20 }, () => postgresDatabase()));
    try {
      for (const h of handles) {
        const tables = await h.db.introspection.getTables();
        expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['markets', 'chain_markets', 'token_accounts']));
      }
    } finally {
      await Promise.all(handles.map((h) => h.close()));
    }
  });
});
