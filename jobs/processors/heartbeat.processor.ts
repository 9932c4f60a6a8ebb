/** `system.heartbeat`: records that this node's workers are alive and reached the database. */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { recordHeartbeat, type NodeIdentity } from '../../src/services/daemon-nodes.service.js';
import type { Processor } from '../processor.js';

export type { NodeIdentity };

export function heartbeatProcessor(db: Kysely<Database>, node: NodeIdentity): Processor<'system.heartbeat'> {
  return async () => {
    await recordHeartbeat(db, node);
    return { nodeId: node.nodeId };
  };
}
