/**
 * Daemon nodes: every process beats on its own timer (whatever its roles) with its event-loop
 * delay, so the Nodes page shows each one and a node that stops beating shows as gone; and the
 * heartbeat job, which whichever worker takes it records for its node, proves the whole pipeline
 * (scheduler → Redis → worker → database) works: /ready reads that one
 * (src/services/readiness.service.ts).
 */
import os from 'node:os';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import {
  deleteNodesSilentSince,
  listNodes,
  recordBeat,
  recordPipelineBeat,
  type DaemonNode,
} from '../../db/repositories/daemon-nodes.repository.js';
import type { Database } from '../../db/schema.js';
import { rebuildableTransaction } from '../../db/database.js';
import { startLoopLagMeter } from '../infra/loop-lag.js';

export interface NodeIdentity {
  /** The process's instance id (`host:port:roles:pid:random`, src/daemon.ts). */
  nodeId: string;
  roles: string[];
  version: string;
  startedAt: string;
}

/** A node silent this long is forgotten (each restart is a new node; the page shows the gone ones until then). */
export const NODE_RETENTION_MS = 24 * 3_600_000;

/** How long a node may stay silent before it counts as gone: three missed beats, and some slack for a slow database. */
export function goneAfterMs(beatIntervalMs: number): number {
  return beatIntervalMs * 3 + 2_000;
}

const record = (node: NodeIdentity) => ({ ...node, hostname: os.hostname(), pid: process.pid });

/** The heartbeat job ran on this node: the pipeline works. */
export async function recordHeartbeat(db: Kysely<Database>, node: NodeIdentity): Promise<void> {
  await rebuildableTransaction(db, (trx) => recordPipelineBeat(trx, record(node), new Date()));
}

/** Beats now and every `intervalMs` until stopped; a failed beat is logged and the next one tries again. */
export function startNodeBeat(options: { db: Kysely<Database>; node: NodeIdentity; intervalMs: number; log: Logger }): {
  stop(): Promise<void>;
} {
  const meter = startLoopLagMeter();
  let beating: Promise<void> | undefined;
  const beat = () => {
    beating ??= (async () => {
      const now = new Date();
      // A beat is rewritten every interval: a power cut that loses the last one loses nothing (no fsync).
      await rebuildableTransaction(options.db, async (trx) => {
        await recordBeat(trx, record(options.node), now, meter.read());
        await deleteNodesSilentSince(trx, new Date(now.getTime() - NODE_RETENTION_MS));
      });
    })()
      .catch((err: unknown) => options.log.warn({ err }, 'node beat failed'))
      .finally(() => {
        beating = undefined;
      });
  };
  beat();
  const timer = setInterval(beat, options.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await beating;
      meter.stop();
    },
  };
}

export interface NodeView extends Omit<DaemonNode, 'beats'> {
  beats: string;
  /** No beat for longer than `goneAfterMs`: stopped, killed, or cut off from the database. */
  gone: boolean;
  secondsSinceBeat: number;
}

/** Every node on record, live ones first, each marked gone when silent past the threshold. */
export async function nodesForOperators(db: Kysely<Database>, beatIntervalMs: number, now = Date.now()): Promise<NodeView[]> {
  const views = (await listNodes(db)).map((node) => {
    const silentMs = Math.max(0, now - Date.parse(node.lastBeatAt));
    return {
      ...node,
      beats: node.beats.toString(),
      gone: silentMs > goneAfterMs(beatIntervalMs),
      secondsSinceBeat: Math.round(silentMs / 1000),
    };
  });
  return [...views.filter((v) => !v.gone), ...views.filter((v) => v.gone)];
}

/** The matcher processes on record, live or gone (their queues: jobs/queue-directory.ts). */
export async function matcherNodes(db: Kysely<Database>, beatIntervalMs: number): Promise<Array<{ nodeId: string; gone: boolean }>> {
  return (await nodesForOperators(db, beatIntervalMs))
    .filter((node) => node.roles.includes('matcher'))
    .map((node) => ({ nodeId: node.nodeId, gone: node.gone }));
}
