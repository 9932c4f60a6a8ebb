/** A Family C stack (family-c.harness.ts) on SQLite or on a fresh PostgreSQL schema, dropped when the stack closes. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PG_AVAILABLE, POSTGRES_URL } from '../helpers/databases.js';
import { openClobHarness, type CHarness } from './family-c.harness.js';

export const CLOB_DATABASES = [
  { name: 'sqlite' as const, available: true },
  { name: 'postgres' as const, available: PG_AVAILABLE },
];

async function onPostgres(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  await client.query(statement);
  await client.end();
}

export async function openClobHarnessOn(name: 'sqlite' | 'postgres', env: Record<string, string> = {}): Promise<CHarness> {
  if (name === 'sqlite') return openClobHarness(env);
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await onPostgres(`create schema ${schema}`);
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const h = await openClobHarness({ ...env, DATABASE_URL: url.toString() });
  return {
    ...h,
    async close() {
      await h.close();
      await onPostgres(`drop schema if exists ${schema} cascade`);
    },
  };
}
