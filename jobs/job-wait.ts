/**
 * Awaiting a BullMQ job's result with a deadline that is told apart by its type. BullMQ's own
 * `waitUntilFinished(events, ttl)` rejects a timeout with a plain Error whose message says
 * "timed out", the same class it uses for a job that failed; a job failing with a message that
 * happens to say "timed out" (an RPC call of the builder, say) was then taken for a timeout.
 * Here our deadline rejects with `JobWaitTimeout`, so callers check `instanceof`.
 */
import type { Job, QueueEvents } from 'bullmq';

/** No finish notification arrived for the job within the deadline. */
export class JobWaitTimeout extends Error {
  override readonly name = 'JobWaitTimeout';
  constructor(
    readonly jobId: string | undefined,
    readonly ms: number,
  ) {
    super(`job ${jobId ?? '?'} did not finish within ${ms} ms`);
  }
}

/**
 * The job's return value, or its failure as BullMQ reports it, or `JobWaitTimeout` after `ms`.
 * BullMQ is still given a (later) ttl so that it removes its event listeners once our deadline
 * has answered; its own timeout rejection then goes to the race, which has already settled.
 */
export async function waitForJob(job: Job, events: QueueEvents, ms: number): Promise<unknown> {
  const finished = job.waitUntilFinished(events, ms + 1_000);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new JobWaitTimeout(job.id, ms)), ms);
  });
  try {
    return await Promise.race([finished, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
