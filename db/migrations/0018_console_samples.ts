/**
 * FROZEN once shipped. The operator console's samples: one row per node and minute, summed on
 * read, pruned after CONSOLE_SAMPLE_RETENTION_HOURS. API nodes write their HTTP counts under their
 * own node id; the cluster-wide numbers read from the database (orders, fills, settlement latency,
 * queue depth) are written once a minute under the node id `cluster`.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('console_samples')
    .addColumn('node_id', 'text', (c) => c.notNull())
    .addColumn('minute', 'text', (c) => c.notNull())
    .addColumn('http_requests', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('http_4xx', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('http_5xx', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('orders', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('fills_matched', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('fills_settled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('settle_p50_ms', 'integer')
    .addColumn('settle_p99_ms', 'integer')
    .addColumn('queue_depth', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('console_samples_pk', ['node_id', 'minute'])
    .execute();
  await db.schema.createIndex('console_samples_minute_idx').on('console_samples').column('minute').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('console_samples').ifExists().execute();
}
