/**
 * "Nothing else happened" is only checkable once every job that could make it happen has run:
 * tests wait for the queues to drain instead of sleeping. A queue is drained when it has no
 * waiting, prioritized, active or waiting-children job and no delayed job other than the
 * next run of a job scheduler (a repeating schedule always has one; it is not pending work).
 */
import type { Queue } from 'bullmq';

async function pending(queue: Queue): Promise<number> {
  const counts = await queue.getJobCounts('waiting', 'prioritized', 'active', 'waiting-children');
  const delayed = (await queue.getJobs(['delayed'])).filter((job) => !job.repeatJobKey);
  return Object.values(counts).reduce((s, n) => s + n, 0) + delayed.length;
}

export async function waitForQueuesDrained(queues: Queue[], timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = await Promise.all(queues.map(pending));
    if (counts.every((n) => n === 0)) return;
    if (Date.now() > deadline) throw new Error(`queues not drained: ${queues.map((q, i) => `${q.name}=${counts[i]}`).join(', ')}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
