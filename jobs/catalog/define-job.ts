import type { Static, TSchema } from 'typebox';

/** Queues: `system` (heartbeats), `tx-build` (request/reply builders), `index` (chain indexing), `platform` (platform transfers). */
export const QUEUE_NAMES = ['system', 'tx-build', 'index', 'platform'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export interface JobDefinition<S extends TSchema = TSchema> {
  queue: QueueName;
  payload: S;
  attempts: number;
  /** Exponential backoff base in ms (BullMQ doubles it each attempt); 0 = no backoff. */
  backoffMs: number;
  /** Deterministic job id for deduplication (BullMQ ignores an add with an existing id). */
  jobId?: (payload: Static<S>) => string;
  /**
   * Completed jobs kept for the dashboard; failed ones are kept longer for operators. BullMQ keeps
   * a count per QUEUE, not per job name (jobs/queues.ts `policy`): the queue keeps the largest
   * count its jobs declare. 0 = each run removes itself, and trims nobody else's history: what
   * periodic sweeps declare (their runs are also removed when added by a schedule).
   */
  keepCompleted?: number;
  keepFailed?: number;
}

export function defineJob<S extends TSchema>(definition: JobDefinition<S>): JobDefinition<S> {
  return definition;
}
