/**
 * FROZEN once shipped. The market makers' dead-man's switch (`POST /v2/clob/heartbeat`): one row
 * per owner with the last accepted heartbeat's signed timestamp (a heartbeat must be newer, so a
 * replayed one cannot keep a dead bot's orders alive) and the deadline it armed, in unix
 * milliseconds, null when disarmed or fired. The index on `deadline_ms` keeps the sweep of due
 * deadlines a range scan.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('clob_heartbeats')
    .addColumn('owner', 'text', (c) => c.primaryKey())
    .addColumn('signed_at', 'bigint', (c) => c.notNull())
    .addColumn('timeout_sec', 'integer', (c) => c.notNull())
    .addColumn('deadline_ms', 'bigint')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('clob_heartbeats_deadline_idx').on('clob_heartbeats').column('deadline_ms').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('clob_heartbeats').ifExists().execute();
}
