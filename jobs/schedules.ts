/**
 * Repeatable jobs, declared once. `upsertJobScheduler` is idempotent, so every process that
 * starts may (re)declare them; BullMQ keeps one schedule per id.
 */
import type { JobQueues } from './queues.js';

export async function declareSchedules(queues: JobQueues, opts: { nodeId: string; heartbeatMs: number }): Promise<void> {
  await queues.get('system').upsertJobScheduler(
    `heartbeat:${opts.nodeId}`,
    { every: opts.heartbeatMs },
    { name: 'system.heartbeat', data: { scheduledBy: opts.nodeId }, opts: { removeOnComplete: 50, removeOnFail: 200 } },
  );
}

export async function removeSchedules(queues: JobQueues, opts: { nodeId: string }): Promise<void> {
  await queues.get('system').removeJobScheduler(`heartbeat:${opts.nodeId}`);
}
