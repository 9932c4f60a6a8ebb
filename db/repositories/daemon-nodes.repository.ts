/** Liveness of daemon processes, written by the heartbeat job and read by /ready. */
import type { Kysely } from 'kysely';
import { num } from '../codec.js';
import type { Database } from '../schema.js';

export interface DaemonNode {
  nodeId: string;
  roles: string[];
  hostname: string;
  pid: number;
  version: string;
  startedAt: string;
  lastBeatAt: string;
  beats: bigint;
}

export async function recordBeat(db: Kysely<Database>, node: Omit<DaemonNode, 'lastBeatAt' | 'beats'>, at: Date): Promise<void> {
  await db
    .insertInto('daemon_nodes')
    .values({
      node_id: node.nodeId,
      roles: node.roles.join(','),
      hostname: node.hostname,
      pid: node.pid,
      version: node.version,
      started_at: node.startedAt,
      last_beat_at: at.toISOString(),
      beats: 1,
    })
    .onConflict((oc) =>
      oc.column('node_id').doUpdateSet((eb) => ({
        last_beat_at: at.toISOString(),
        beats: eb('daemon_nodes.beats', '+', 1n), // 1n, not 1: SQLite would add a bound double and round past 2^53
      })),
    )
    .execute();
}

export async function findNode(db: Kysely<Database>, nodeId: string): Promise<DaemonNode | undefined> {
  const row = await db.selectFrom('daemon_nodes').selectAll().where('node_id', '=', nodeId).executeTakeFirst();
  if (!row) return undefined;
  return {
    nodeId: row.node_id,
    roles: row.roles.split(','),
    hostname: row.hostname,
    pid: num(row.pid),
    version: row.version,
    startedAt: row.started_at,
    lastBeatAt: row.last_beat_at,
    beats: BigInt(row.beats),
  };
}

/** When the most recent heartbeat of any node was processed (ISO), or undefined before the first. */
export async function newestBeatAt(db: Kysely<Database>): Promise<string | undefined> {
  const row = await db.selectFrom('daemon_nodes').select('last_beat_at').orderBy('last_beat_at', 'desc').limit(1).executeTakeFirst();
  return row?.last_beat_at;
}
