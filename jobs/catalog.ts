/**
 * The typed job catalog: every job the daemon runs, with its queue, payload schema, retry policy
 * and job-id rule. Producers enqueue only through `enqueue()` (jobs/producer.ts), which validates
 * the payload against this catalog; `assertProcessorsCover()` fails startup when a job has no
 * processor, so a job can never be enqueued that nobody will run.
 */
import { Type, type Static, type TSchema } from 'typebox';

export const QUEUE_NAMES = ['system', 'tx-build', 'index', 'platform'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export interface JobDefinition<S extends TSchema = TSchema> {
  queue: QueueName;
  payload: S;
  attempts: number;
  /** Exponential backoff base in ms (BullMQ doubles it each attempt). */
  backoffMs: number;
  /** Deterministic job id for deduplication (BullMQ ignores an add with an existing id). */
  jobId?: (payload: Static<S>) => string;
  /** Completed jobs kept for the dashboard; failed ones are kept longer for operators. */
  keepCompleted?: number;
  keepFailed?: number;
}

function defineJob<S extends TSchema>(definition: JobDefinition<S>): JobDefinition<S> {
  return definition;
}

export const TxBuildPayload = Type.Object({
  /** Which registered builder runs, e.g. "market.buy" (see src/services/tx-builders). */
  kind: Type.String({ minLength: 1 }),
  params: Type.Record(Type.String(), Type.Unknown()),
});

export const jobCatalog = {
  'system.heartbeat': defineJob({
    queue: 'system',
    payload: Type.Object({ scheduledBy: Type.String() }),
    attempts: 1,
    backoffMs: 0,
    keepCompleted: 50,
    keepFailed: 200,
  }),
  'tx.build': defineJob({
    queue: 'tx-build',
    payload: TxBuildPayload,
    // A request/reply job: the caller waits for it; a retry after the caller gave up is waste.
    attempts: 1,
    backoffMs: 0,
    keepCompleted: 200,
    keepFailed: 500,
  }),
} satisfies Record<string, JobDefinition>;

export type JobCatalog = typeof jobCatalog;
export type JobName = keyof JobCatalog;
export type JobPayload<N extends JobName> = Static<JobCatalog[N]['payload']>;

export function assertProcessorsCover(processorNames: Iterable<string>): void {
  const have = new Set(processorNames);
  const missing = Object.keys(jobCatalog).filter((name) => !have.has(name));
  const unknown = [...have].filter((name) => !(name in jobCatalog));
  if (missing.length > 0 || unknown.length > 0) {
    const parts = [
      missing.length > 0 ? `jobs without a processor: ${missing.join(', ')}` : '',
      unknown.length > 0 ? `processors for unknown jobs: ${unknown.join(', ')}` : '',
    ].filter(Boolean);
    throw new Error(`Job catalog check failed: ${parts.join('; ')}`);
  }
}
