/**
 * FROZEN once shipped. The operators' audit log: one row per state-changing admin request (API
 * or console), written before the action runs (`result` pending) and completed with its HTTP
 * status when it answers, so that an action cut short by a crash still shows, as pending.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('operator_audit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('caller', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .execute();
  await db.schema.createIndex('operator_audit_at_idx').on('operator_audit').columns(['at', 'id']).execute();
  await db.schema.createIndex('operator_audit_action_idx').on('operator_audit').columns(['action', 'at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('operator_audit').ifExists().execute();
}
