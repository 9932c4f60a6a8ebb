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

/** The pending jobs of a queue, named, for a timeout's message. */
async function describePending(queue: Queue): Promise<string> {
  const jobs = await queue.getJobs(['waiting', 'prioritized', 'active', 'waiting-children', 'delayed']);
  return jobs
    .filter((job) => !job.repeatJobKey)
    .map((job) => `${job.name} (attempts made ${job.attemptsMade}${job.failedReason ? `, last error: ${job.failedReason}` : ''})`)
    .join('; ');
}

/** Runs the delayed jobs that are not a schedule's next run now (a job that moved on meanwhile is left alone). */
async function promoteRetries(queue: Queue): Promise<void> {
  for (const job of await queue.getJobs(['delayed'])) if (!job.repeatJobKey) await job.promote().catch(() => undefined);
}

/**
 * Waits until every queue is drained. `promoteDelayed`: retries waiting out their backoff are
 * run now (BullMQ's promote), for a test that needs them to have run, not to have waited.
 */
export async function waitForQueuesDrained(queues: Queue[], timeoutMs = 20_000, opts: { promoteDelayed?: boolean } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (opts.promoteDelayed) await Promise.all(queues.map(promoteRetries));
    const counts = await Promise.all(queues.map(pending));
    if (counts.every((n) => n === 0)) return;
    if (Date.now() > deadline) {
      const pendingJobs = await Promise.all(queues.map(describePending));
      throw new Error(`queues not drained: ${queues.map((q, i) => `${q.name}=${counts[i]} [${pendingJobs[i]}]`).join(', ')}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}
