/**
 * `outbound.resume`: re-enqueues unfinished outbound transactions left untouched for a while,
 * e.g. after a crash between recording an intent and enqueueing its job, or after a job used up
 * its attempts, or when a payout waiting for funds is due for its next check. Duplicates are
 * harmless (the sender is idempotent); the job id carries the row's attempt and funding-check
 * counts so a finished job id does not swallow the re-enqueue.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { outboundJobId } from '../../../src/services/outbound/outbound-intents.js';
import { outboundToResume } from '../../../src/services/outbound/outbound-resume.js';
import type { JobQueues } from '../../queues.js';
import type { Processor } from '../../processor.js';

export async function resumeUnfinished(db: Kysely<Database>, queues: JobQueues, idleMs: number): Promise<number> {
  const rows = await outboundToResume(db, idleMs);
  for (const row of rows) {
    await queues.enqueue(
      'outbound.send',
      { outboundId: row.id },
      { jobId: outboundJobId(row.id, `r${row.attempts}-f${row.fundingChecks}`) },
    );
  }
  return rows.length;
}

export function outboundResumeProcessor(db: Kysely<Database>, queues: JobQueues, idleMs: number): Processor<'outbound.resume'> {
  return async (_payload, _job, log) => {
    const resumed = await resumeUnfinished(db, queues, idleMs);
    if (resumed > 0) log.info({ resumed }, 'resumed unfinished outbound transactions');
    return { resumed };
  };
}
