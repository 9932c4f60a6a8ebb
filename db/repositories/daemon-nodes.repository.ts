/**
 * Daemon processes: each node's own beat (every role, on a timer: the Nodes page) and the
 * heartbeat job's pipeline beat (a worker ran it: /ready). A node is one running process, keyed by
 * its instance id (`host:port:roles:pid:random`, the id its matcher leases and epochs carry).
 */
import type { Kysely, Selectable } from 'kysely';
import { num } from '../codec.js';
import type { DaemonNodesTable, Database } from '../schema.js';

export interface NodeRecord {
  nodeId: string;
  roles: string[];
  hostname: string;
  pid: number;
  version: string;
  startedAt: string;
}

export interface DaemonNode extends NodeRecord {
  lastBeatAt: string;
  beats: bigint;
  pipelineBeatAt: string | null;
  /** Event-loop delay over the last beat interval (µs), null until measured. */
  loopLagP99Us: number | null;
  loopLagMeanUs: number | null;
}

export interface LoopLag {
  p99Us: number;
  meanUs: number;
}

const identityRow = (node: NodeRecord) => ({
  node_id: node.nodeId,
  roles: node.roles.join(','),
  hostname: node.hostname,
  pid: node.pid,
  version: node.version,
  started_at: node.startedAt,
});

/** The node's own beat, with its event-loop delay since the previous one. */
export async function recordBeat(db: Kysely<Database>, node: NodeRecord, at: Date, lag?: LoopLag): Promise<void> {
  const lagColumns = { loop_lag_p99_us: lag?.p99Us ?? null, loop_lag_mean_us: lag?.meanUs ?? null };
  await db
    .insertInto('daemon_nodes')
    .values({ ...identityRow(node), last_beat_at: at.toISOString(), beats: 1, ...lagColumns })
    .onConflict((oc) =>
      oc.column('node_id').doUpdateSet((eb) => ({
        last_beat_at: at.toISOString(),
        beats: eb('daemon_nodes.beats', '+', 1n), // 1n, not 1: SQLite would add a bound double and round past 2^53
        ...lagColumns,
      })),
    )
    .execute();
}

/** A worker of this node ran the deployment's heartbeat job (a live node, too). */
export async function recordPipelineBeat(db: Kysely<Database>, node: NodeRecord, at: Date): Promise<void> {
  await db
    .insertInto('daemon_nodes')
    .values({ ...identityRow(node), last_beat_at: at.toISOString(), beats: 0, pipeline_beat_at: at.toISOString() })
    .onConflict((oc) => oc.column('node_id').doUpdateSet({ pipeline_beat_at: at.toISOString() }))
    .execute();
}

function toNode(row: Selectable<DaemonNodesTable>): DaemonNode {
  return {
    nodeId: row.node_id,
    roles: row.roles.split(','),
    hostname: row.hostname,
    pid: num(row.pid),
    version: row.version,
    startedAt: row.started_at,
    lastBeatAt: row.last_beat_at,
    beats: BigInt(row.beats),
    pipelineBeatAt: row.pipeline_beat_at,
    loopLagP99Us: row.loop_lag_p99_us === null ? null : num(row.loop_lag_p99_us),
    loopLagMeanUs: row.loop_lag_mean_us === null ? null : num(row.loop_lag_mean_us),
  };
}

export async function findNode(db: Kysely<Database>, nodeId: string): Promise<DaemonNode | undefined> {
  const row = await db.selectFrom('daemon_nodes').selectAll().where('node_id', '=', nodeId).executeTakeFirst();
  return row && toNode(row);
}

/** Every node still on record, the most recently beating first. */
export async function listNodes(db: Kysely<Database>): Promise<DaemonNode[]> {
  const rows = await db.selectFrom('daemon_nodes').selectAll().orderBy('last_beat_at', 'desc').orderBy('node_id').execute();
  return rows.map(toNode);
}

/** Forgets nodes silent since before `cutoff` (each restart is a new node); how many went. */
export async function deleteNodesSilentSince(db: Kysely<Database>, cutoff: Date): Promise<number> {
  const res = await db.deleteFrom('daemon_nodes').where('last_beat_at', '<', cutoff.toISOString()).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** When a worker last ran the heartbeat job, on any node (ISO), or undefined before the first. */
export async function newestPipelineBeatAt(db: Kysely<Database>): Promise<string | undefined> {
  const row = await db
    .selectFrom('daemon_nodes')
    .select('pipeline_beat_at')
    .where('pipeline_beat_at', 'is not', null)
    .orderBy('pipeline_beat_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.pipeline_beat_at ?? undefined;
}
