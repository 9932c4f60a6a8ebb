import { Migrator, PostgresAdapter, sql, type Kysely, type MigrationProvider } from 'kysely';
import type { Logger } from 'pino';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * PostgreSQL: keep Kysely's migration tables in the connection's current schema. Kysely looks for
 * them across every schema otherwise, so two databases in sibling schemas (per-test schemas, or
 * two deployments sharing a server) would find each other's lock table and fail.
 */
async function migrationTableSchema(db: Kysely<Database>): Promise<string | undefined> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema;
}

/** Brings the schema to the newest migration; Kysely's lock makes concurrent starts safe. */
export async function migrateToLatest(db: Kysely<Database>, log?: Logger): Promise<string[]> {
  const migrator = new Migrator({
    db: db as Kysely<unknown>,
    provider,
    allowUnorderedMigrations: true,
    migrationTableSchema: await migrationTableSchema(db),
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  for (const r of results) {
    if (r.status === 'Success') log?.info({ migration: r.migrationName }, 'migration applied');
    if (r.status === 'Error') log?.error({ migration: r.migrationName }, 'migration failed');
  }
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
