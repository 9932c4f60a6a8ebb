/**
 * The typed job catalog: every job the daemon runs, with its queue, payload schema, retry policy
 * and job-id rule. Each feature declares its jobs in its own file under jobs/catalog/; this file
 * joins them. Producers enqueue only through `JobQueues.enqueue()`, which validates the payload
 * against the catalog; `assertProcessorsCover()` fails startup when a job has no processor, so a
 * job can never be enqueued that nobody will run.
 */
import type { Static } from 'typebox';
import { familyAJobs } from './catalog/family-a.jobs.js';
import { familyBJobs } from './catalog/family-b.jobs.js';
import { familyCJobs } from './catalog/family-c.jobs.js';
import { outboundJobs } from './catalog/outbound.jobs.js';
import { systemJobs } from './catalog/system.jobs.js';
import type { JobDefinition } from './catalog/define-job.js';

export { QUEUE_NAMES, type QueueName, type JobDefinition } from './catalog/define-job.js';
export { TxBuildPayload } from './catalog/system.jobs.js';

export const jobCatalog = {
  ...systemJobs,
  ...outboundJobs,
  ...familyAJobs,
  ...familyBJobs,
  ...familyCJobs,
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
