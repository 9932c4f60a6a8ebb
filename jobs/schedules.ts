/**
 * The daemon's own repeatable jobs (features declare theirs in `Feature.schedules`), through the
 * catalog (`JobQueues.schedule`). Declaring is idempotent, so every process that starts may
 * (re)declare them; BullMQ keeps one schedule per id.
 *
 * The heartbeat has ONE schedule for the whole deployment (`heartbeat`), not one per node: a
 * beat proves the pipeline scheduler → Redis → worker → database, and whichever worker takes it
 * records its own node. Per-node schedules outlived their nodes (every distinct node id left a
 * repeating job in Redis forever); those of earlier versions are removed at start.
 */
import type { JobQueues } from './queues.js';

export const HEARTBEAT_SCHEDULE = 'heartbeat';

export async function declareSchedules(
  queues: JobQueues,
  opts: { nodeId: string; heartbeatMs: number },
): Promise<{ removedStale: number }> {
  await queues.schedule(HEARTBEAT_SCHEDULE, 'system.heartbeat', { scheduledBy: opts.nodeId }, opts.heartbeatMs);
  const system = queues.get('system');
  let removedStale = 0;
  for (const scheduler of await system.getJobSchedulers(0, -1)) {
    const id = scheduler.key ?? scheduler.id;
    if (id && id.startsWith('heartbeat:') && (await system.removeJobScheduler(id))) removedStale++;
  }
  return { removedStale };
}
