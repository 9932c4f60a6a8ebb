/**
 * This node's heartbeat: proof that the whole pipeline (scheduler → Redis → worker → database)
 * works. /ready reads the newest beat of any node (src/services/readiness.service.ts).
 */
import os from 'node:os';
import type { Kysely } from 'kysely';
import { recordBeat } from '../../db/repositories/daemon-nodes.repository.js';
import type { Database } from '../../db/schema.js';

export interface NodeIdentity {
  nodeId: string;
  roles: string[];
  version: string;
  startedAt: string;
}

export async function recordHeartbeat(db: Kysely<Database>, node: NodeIdentity): Promise<void> {
  await recordBeat(db, { ...node, hostname: os.hostname(), pid: process.pid }, new Date());
}
