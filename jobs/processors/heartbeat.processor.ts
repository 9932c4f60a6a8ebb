/**
 * Records that this node's workers are alive and reached the database: proof that the whole
 * pipeline (scheduler → Redis → worker → DB) works. /ready reads the newest beat.
 */
import os from 'node:os';
import type { Kysely } from 'kysely';
import { recordBeat } from '../../db/repositories/daemon-nodes.repository.js';
import type { Database } from '../../db/schema.js';
import type { Processor } from '../processor.js';

export interface NodeIdentity {
  nodeId: string;
  roles: string[];
  version: string;
  startedAt: string;
}

export function heartbeatProcessor(db: Kysely<Database>, node: NodeIdentity): Processor<'system.heartbeat'> {
  return async () => {
    await recordBeat(db, { ...node, hostname: os.hostname(), pid: process.pid }, new Date());
    return { nodeId: node.nodeId };
  };
}
