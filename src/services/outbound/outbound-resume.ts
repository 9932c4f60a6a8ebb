/**
 * Which outbound transactions need their job again: unfinished rows left untouched for `idleMs`
 * (a crash between recording an intent and enqueueing it, or a job that used up its attempts),
 * and rows waiting for funds once their next funding check is due.
 */
import type { Kysely } from 'kysely';
import { num } from '../../../db/codec.js';
import { listUnfinishedOutbound } from '../../../db/repositories/outbound-transactions.repository.js';
import type { Database } from '../../../db/schema.js';

/** At most this many per pass; the schedule's next pass takes the rest. */
const RESUME_BATCH = 500;

export async function outboundToResume(
  db: Kysely<Database>,
  idleMs: number,
): Promise<Array<{ id: string; attempts: number; fundingChecks: number }>> {
  const rows = await listUnfinishedOutbound(db, new Date(Date.now() - idleMs).toISOString(), RESUME_BATCH);
  return rows.map((r) => ({ id: r.id, attempts: num(r.attempts), fundingChecks: num(r.funding_checks) }));
}
