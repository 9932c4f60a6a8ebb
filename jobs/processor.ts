/**
 * What a processor is: a function of the validated payload and the BullMQ job, built from the
 * daemon's dependencies. Every processor must be safe to run twice (BullMQ is at-least-once).
 */
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import type { JobName, JobPayload } from './catalog.js';

export type Processor<N extends JobName> = (payload: JobPayload<N>, job: Job, log: Logger) => Promise<unknown>;

export type ProcessorMap = { [N in JobName]?: Processor<N> };
