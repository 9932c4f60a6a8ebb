/**
 * One BullMQ Worker per queue that has processors in this process. The worker validates each
 * payload against the catalog (a malformed job fails at once, unrecoverably) and dispatches by
 * job name. Shutdown closes workers gracefully: active jobs finish, nothing new is taken.
 */
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { Value } from 'typebox/value';
import { jobCatalog, type JobName, type QueueName } from './catalog.js';
import type { Processor, ProcessorMap } from './processor.js';

export interface WorkerEvents {
  onCompleted?(job: Job, durationMs: number): void;
  onFailed?(job: Job | undefined, error: Error): void;
}

export interface WorkerOptions {
  connection: Redis;
  prefix: string;
  processors: ProcessorMap;
  log: Logger;
  concurrency?: Partial<Record<QueueName, number>>;
  events?: WorkerEvents;
}

/**
 * A job whose process died (`kill -9`) is found by BullMQ's stall check once its lock has expired
 * and a check has marked it and a later one still finds it unlocked: with BullMQ's defaults (30 s
 * lock, a check every 30 s) that took up to about a minute, and meanwhile a deduplicated job (a
 * market's settlement planning) could not be queued again. A 20 s lock and a check every 5 s find
 * it within about 25 s. BullMQ renews a lock every quarter of its duration or so, so a live worker
 * loses one only if its event loop stalls for about 15 s (long loops in jobs yield: time-slice.ts);
 * should that happen, a second stall is allowed before a job fails for good.
 */
export const LOCK_MS = 20_000;
export const STALLED_CHECK_MS = 5_000;

export function startWorkers(options: WorkerOptions): Worker[] {
  const byQueue = new Map<QueueName, JobName[]>();
  for (const name of Object.keys(options.processors) as JobName[]) {
    const queue = jobCatalog[name].queue;
    byQueue.set(queue, [...(byQueue.get(queue) ?? []), name]);
  }
  return [...byQueue.keys()].map((queue) => {
    const worker = new Worker(queue, (job) => dispatch(job, options), {
      connection: options.connection,
      prefix: options.prefix,
      concurrency: options.concurrency?.[queue] ?? 4,
      lockDuration: LOCK_MS,
      stalledInterval: STALLED_CHECK_MS,
      maxStalledCount: 2,
      autorun: true,
    });
    worker.on('completed', (job) => options.events?.onCompleted?.(job, (job.finishedOn ?? Date.now()) - (job.processedOn ?? Date.now())));
    worker.on('failed', (job, error) => {
      options.log.warn({ queue, jobId: job?.id, job: job?.name, attempt: job?.attemptsMade, err: error }, 'job failed');
      options.events?.onFailed?.(job, error);
    });
    worker.on('error', (error) => options.log.error({ queue, err: error }, 'worker error'));
    return worker;
  });
}

async function dispatch(job: Job, options: WorkerOptions): Promise<unknown> {
  const name = job.name as JobName;
  const definition = jobCatalog[name];
  const processor = options.processors[name] as Processor<JobName> | undefined;
  if (!definition || !processor) throw new UnrecoverableError(`no processor for job ${job.name}`);
  if (!Value.Check(definition.payload, job.data)) throw new UnrecoverableError(`invalid payload for job ${job.name}`);
  const log = options.log.child({ job: name, jobId: job.id, attempt: job.attemptsMade + 1 });
  return processor(job.data as never, job, log);
}
