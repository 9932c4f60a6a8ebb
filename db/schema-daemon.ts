/** Kysely table types of the daemon's own bookkeeping (migrations 0001, 0020); see db/schema.ts. */
import type { ColumnType } from 'kysely';
import type { Int } from './column-types.js';

/** One row per daemon process (keyed by its instance id): its own beat, and the heartbeat job's. */
export interface DaemonNodesTable {
  node_id: string;
  roles: string;
  hostname: string;
  pid: Int;
  version: string;
  started_at: string;
  /** The node's own beat (every role, on a timer). */
  last_beat_at: string;
  beats: ColumnType<bigint, bigint | number, bigint | number>;
  /** When a worker of this node last ran the heartbeat job (/ready); null when it never did. */
  pipeline_beat_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** Event-loop delay over the last beat interval, in microseconds. */
  loop_lag_p99_us: ColumnType<number | null, number | null | undefined, number | null>;
  loop_lag_mean_us: ColumnType<number | null, number | null | undefined, number | null>;
}
