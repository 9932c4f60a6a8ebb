/**
 * One BullMQ Queue per queue name, sharing a producer connection. Enqueueing goes through
 * `enqueue()`, which validates the payload against the catalog and applies the job's policy.
 */
import { Queue, type JobsOptions, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { Value } from 'typebox/value';
import { jobCatalog, QUEUE_NAMES, type JobName, type JobPayload, type QueueName } from './catalog.js';

export class JobQueues {
  readonly queues: ReadonlyMap<QueueName, Queue>;

  constructor(
    connection: Redis,
    readonly prefix: string,
  ) {
    this.queues = new Map(QUEUE_NAMES.map((name) => [name, new Queue(name, { connection, prefix })]));
  }

  get(name: QueueName): Queue {
    const queue = this.queues.get(name);
    if (!queue) throw new Error(`unknown queue ${name}`);
    return queue;
  }

  async enqueue<N extends JobName>(name: N, payload: JobPayload<N>, overrides: JobsOptions = {}): Promise<Job> {
    const definition = jobCatalog[name];
    if (!Value.Check(definition.payload, payload)) {
      const first = [...Value.Errors(definition.payload, payload)][0];
      throw new Error(`invalid payload for job ${name}: ${first ? `${first.instancePath} ${first.message}` : 'schema mismatch'}`);
    }
    const jobIdRule = (definition as { jobId?: (p: JobPayload<N>) => string }).jobId;
    const options: JobsOptions = {
      attempts: definition.attempts,
      ...(definition.backoffMs > 0 ? { backoff: { type: 'exponential', delay: definition.backoffMs } } : {}),
      removeOnComplete: { count: definition.keepCompleted ?? 1000 },
      removeOnFail: { count: definition.keepFailed ?? 5000 },
      ...(jobIdRule ? { jobId: jobIdRule(payload) } : {}),
      ...overrides,
    };
    return this.get(definition.queue).add(name, payload, options);
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}
