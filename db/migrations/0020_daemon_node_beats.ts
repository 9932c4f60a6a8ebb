/**
 * FROZEN once shipped. Every daemon node beats, not only those with workers (issue 28):
 * - `last_beat_at` / `beats` are now the node's own beat, written on a timer by every process;
 * - `pipeline_beat_at`: when a worker of this node last ran the deployment's heartbeat JOB, the
 *   proof that scheduler → Redis → worker → database works, which /ready reads (it used to be
 *   `last_beat_at`, hence the copy);
 * - `loop_lag_p99_us` / `loop_lag_mean_us`: the node's event-loop delay over its last beat
 *   interval (microseconds; null until measured).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('daemon_nodes').addColumn('pipeline_beat_at', 'text').execute();
  await db.schema.alterTable('daemon_nodes').addColumn('loop_lag_p99_us', 'integer').execute();
  await db.schema.alterTable('daemon_nodes').addColumn('loop_lag_mean_us', 'integer').execute();
  await sql`update daemon_nodes set pipeline_beat_at = last_beat_at`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('daemon_nodes').dropColumn('loop_lag_mean_us').execute();
  await db.schema.alterTable('daemon_nodes').dropColumn('loop_lag_p99_us').execute();
  await db.schema.alterTable('daemon_nodes').dropColumn('pipeline_beat_at').execute();
}
