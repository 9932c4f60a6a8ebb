import { Migrator, PostgresAdapter, sql, type DatabaseIntrospector, type Kysely, type MigrationProvider } from 'kysely';
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

/**
 * Kysely's migrator checks for its tables with an introspection of every schema on a PostgreSQL
 * server (tables and columns, `pg_get_serial_sequence` on each), which fails with "schema … does
 * not exist" or "column … does not exist" when another deployment or test drops a sibling schema
 * meanwhile. The migrator only needs the names of the tables of our schema: give it a view of
 * the database whose introspection lists just those.
 */
function scopedToCurrentSchema(db: Kysely<Database>): Kysely<unknown> {
  const introspector = db.introspection;
  const scoped: DatabaseIntrospector = {
    getSchemas: () => introspector.getSchemas(),
    getMetadata: async (options) => ({ tables: await scoped.getTables(options) }),
    async getTables() {
      const { rows } = await sql<{ name: string; schema: string }>`
        select table_name as name, table_schema as schema from information_schema.tables where table_schema = current_schema()`.execute(db);
      return rows.map((r) => ({ name: r.name, schema: r.schema, isView: false, columns: [] }));
    },
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'introspection') return scoped;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  }) as unknown as Kysely<unknown>;
}

/** Brings the schema to the newest migration; Kysely's lock makes concurrent starts safe. */
export async function migrateToLatest(db: Kysely<Database>, log?: Logger): Promise<string[]> {
  const schema = await migrationTableSchema(db);
  const migrator = new Migrator({
    db: schema === undefined ? (db as Kysely<unknown>) : scopedToCurrentSchema(db),
    provider,
    allowUnorderedMigrations: true,
    migrationTableSchema: schema,
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  for (const r of results) {
    if (r.status === 'Success') log?.info({ migration: r.migrationName }, 'migration applied');
    if (r.status === 'Error') log?.error({ migration: r.migrationName }, 'migration failed');
  }
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
