/**
 * Real databases for tests: a fresh SQLite file per call, and a fresh PostgreSQL schema per call
 * on the machine's server (127.0.0.1:5432, database `test`, or TEST_DATABASE_URL). When
 * PostgreSQL is unreachable its tier is reported as skipped, never silently passed.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPostgres, openSqlite, type DatabaseHandle } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrator.js';

export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 1_500 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export const PG_AVAILABLE = await postgresAvailable();
if (!PG_AVAILABLE) console.warn(`PostgreSQL at ${POSTGRES_URL} is unreachable: the PostgreSQL tier is SKIPPED`);

export function tempDir(prefix = 'pmx-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function sqliteDatabase(): Promise<DatabaseHandle> {
  const handle = openSqlite(path.join(tempDir(), 'test.db'));
  await migrateToLatest(handle.db);
  return handle;
}

/** An empty schema of its own and a URL whose search_path is that schema (a daemon's DATABASE_URL). */
export async function postgresSchema(): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: POSTGRES_URL });
      await cleanup.connect();
      await cleanup.query(`drop schema ${schema} cascade`);
      await cleanup.end();
    },
  };
}

/** A migrated, empty schema of its own; dropped on close. */
export async function postgresDatabase(): Promise<DatabaseHandle> {
  const schema = await postgresSchema();
  const handle = openPostgres(schema.url, 4);
  await migrateToLatest(handle.db);
  return {
    ...handle,
    async close() {
      await handle.close();
      await schema.drop();
    },
  };
}

export const DIALECTS = [
  { name: 'sqlite', available: true, open: sqliteDatabase },
  { name: 'postgres', available: PG_AVAILABLE, open: postgresDatabase },
] as const;
