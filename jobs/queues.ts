/**
 * One BullMQ Queue per queue name, sharing a producer connection. Enqueueing goes through
 * `enqueue()`, which validates the payload against the catalog and applies the job's policy;
 * repeatable jobs go through `schedule()`, which does the same for the job each run adds.
 * Schedules are declared as the worker role starts, so a bad one fails the daemon's start.
 */
import { Queue, type JobsOptions, type Job, type KeepJobs } from 'bullmq';
import type { Redis } from 'ioredis';
import { Compile, type Validator } from 'typebox/compile';
import { Value } from 'typebox/value';
import { jobCatalog, QUEUE_NAMES, type JobDefinition, type JobName, type JobPayload, type QueueName } from './catalog.js';

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
    const definition = checked(name, payload);
    const jobIdRule = (definition as { jobId?: (p: JobPayload<N>) => string }).jobId;
    const options: JobsOptions = {
      ...policyOf(name),
      ...(jobIdRule ? { jobId: jobIdRule(payload) } : {}),
      ...overrides,
    };
    return this.get(definition.queue).add(name, payload, options);
  }

  /**
   * Declares (idempotently: BullMQ keeps one scheduler per id) a job of the catalog added every
   * `everyMs`, the first at once; each run's job has its catalog queue and retries, and removes
   * itself when it ends: a run every few seconds kept by count would trim the queue's whole
   * completed (failed) set and push the real jobs' history out. A failed run is still logged and
   * counted (`pmx_jobs_total{outcome="failed"}`), and the next run comes within the interval.
   */
  async schedule<N extends JobName>(schedulerId: string, name: N, payload: JobPayload<N>, everyMs: number): Promise<void> {
    const definition = checked(name, payload);
    if (!Number.isSafeInteger(everyMs) || everyMs <= 0) throw new Error(`invalid schedule ${schedulerId}: every ${everyMs} ms`);
    await this.get(definition.queue).upsertJobScheduler(
      schedulerId,
      { every: everyMs },
      {
        name,
        data: payload,
        opts: { ...policy(definition), removeOnComplete: true, removeOnFail: true },
      },
    );
  }

  /** Removes a schedule declared by `schedule()` (e.g. a sweep turned off by configuration). */
  async unschedule(schedulerId: string, name: JobName): Promise<void> {
    await this.get(jobCatalog[name].queue).removeJobScheduler(schedulerId);
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}

/**
 * Each job's payload schema compiled once, on its first enqueue: `Value.Check` interprets the
 * schema (its patterns too) on every call, and the placement path asks for its planning and candle
 * jobs many times a second (issue 31). The same schema checks the same payloads.
 */
const validators = new Map<JobName, Validator>();

function validatorOf(name: JobName, definition: JobDefinition): Validator {
  let validator = validators.get(name);
  if (!validator) validators.set(name, (validator = Compile(definition.payload)));
  return validator;
}

/** The job's definition, once its payload matches the catalog's schema. */
function checked<N extends JobName>(name: N, payload: JobPayload<N>): JobDefinition {
  const definition = jobCatalog[name];
  if (!validatorOf(name, definition).Check(payload)) {
    const first = [...Value.Errors(definition.payload, payload)][0];
    throw new Error(`invalid payload for job ${name}: ${first ? `${first.instancePath} ${first.message}` : 'schema mismatch'}`);
  }
  return definition;
}

/**
 * BullMQ trims a queue's WHOLE completed (failed) set to the count of the job that just ended, not
 * that job's own entries: a job keeping 200 on a queue where another keeps 500 would cut the
 * other's history to 200. So every job of a queue trims by the largest count its queue's jobs
 * declare; a job keeping 0 removes only itself (`true`), whatever else the queue holds.
 */
function largestKeep(queue: QueueName, field: 'keepCompleted' | 'keepFailed', fallback: number): number {
  const counts = Object.values<JobDefinition>(jobCatalog)
    .filter((d) => d.queue === queue)
    .map((d) => d[field] ?? fallback);
  return Math.max(0, ...counts);
}

function retention(definition: JobDefinition, field: 'keepCompleted' | 'keepFailed', fallback: number): true | KeepJobs {
  if ((definition[field] ?? fallback) === 0) return true;
  return { count: largestKeep(definition.queue, field, fallback) };
}

/**
 * Each job's policy, made once: the catalog does not change while the daemon runs, and the
 * retention walks the whole catalog (`largestKeep`). Each enqueue spreads it into its own options.
 */
const policies = new Map<JobName, JobsOptions>();

function policyOf(name: JobName): JobsOptions {
  let options = policies.get(name);
  if (!options) policies.set(name, (options = policy(jobCatalog[name])));
  return options;
}

/** Retries and retention as the catalog declares them. */
function policy(definition: JobDefinition): JobsOptions {
  return {
    attempts: definition.attempts,
    ...(definition.backoffMs > 0 ? { backoff: { type: 'exponential', delay: definition.backoffMs } } : {}),
    removeOnComplete: retention(definition, 'keepCompleted', 1000),
    removeOnFail: retention(definition, 'keepFailed', 5000),
  };
}
