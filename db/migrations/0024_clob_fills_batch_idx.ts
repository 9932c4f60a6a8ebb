/**
 * FROZEN once shipped. The fills a settlement batch carries (`fillsOfBatch`: the batch's rows of
 * clob_batch_fills joined to the fills still in flight in it) had no index on clob_fills.batch_id:
 * PostgreSQL, whose estimates of a table that grew since its last analyze are low, read every
 * fill in flight and filtered them by batch (48 ms a call in the settlement bench on PostgreSQL,
 * one call per batch outcome and per build). The keeper's writes by batch (`markRetrying`, and
 * `endFills` / `releaseFills`, guarded by `batch_id = ?`) use it too. Issue 31.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('clob_fills_batch_idx').on('clob_fills').column('batch_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('clob_fills_batch_idx').ifExists().execute();
}
