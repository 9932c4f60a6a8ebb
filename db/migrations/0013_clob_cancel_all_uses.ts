/**
 * FROZEN once shipped. A cancel-all proof (`PMX Cancel All:<market|*>:<unix seconds>`) works
 * once: its use is recorded under the primary key (owner, market as signed, timestamp), so a
 * replay within the proof's 60 s window inserts nothing and cancels nothing. Rows whose
 * timestamp can no longer be fresh are pruned (the index on `signed_at` keeps that a range).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('clob_cancel_all_uses')
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('market_ref', 'text', (c) => c.notNull())
    .addColumn('signed_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('clob_cancel_all_uses_pk', ['owner', 'market_ref', 'signed_at'])
    .execute();
  await db.schema.createIndex('clob_cancel_all_uses_signed_at_idx').on('clob_cancel_all_uses').column('signed_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('clob_cancel_all_uses').ifExists().execute();
}
