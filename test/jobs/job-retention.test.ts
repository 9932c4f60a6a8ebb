/**
 * Periodic sweeps keep no runs and never evict other jobs' history: BullMQ trims a queue's whole
 * completed (failed) set by the count of the job that just ended, so `clob.settle.sweep` every
 * 2 s with a count of 20 used to push the platform queue's real jobs out within a minute. Here
 * more sweeps than any sweep count (completed and failed) run through the real schedule on real
 * Redis, after one real job completed and one failed; both real jobs are still there after.
 */
import type { Worker } from 'bullmq';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { jobCatalog, type JobDefinition } from '../../jobs/catalog.js';
import { JobQueues } from '../../jobs/queues.js';
import { createRedisConnection } from '../../jobs/redis-connection.js';
import { startWorkers } from '../../jobs/workers.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

// More than the 20 completed and 100 failed runs the sweeps used to keep (the whole queue's).
const COMPLETED_SWEEPS = 30;
const FAILED_SWEEPS = 110;

describe('job retention on a shared queue', () => {
  it('keeps real jobs (completed and failed) through many sweep runs, and no sweep run', async () => {
    const prefix = uniquePrefix('retention');
    const producer = createRedisConnection(TEST_REDIS_URL, 'general');
    const blocking = createRedisConnection(TEST_REDIS_URL, 'blocking');
    const queues = new JobQueues(producer, prefix);
    let workers: Worker[] = [];
    try {
      let sweeps = 0;
      let completedSweeps = 0;
      let failedSweeps = 0;
      let enough!: () => void;
      const sweptEnough = new Promise<void>((resolve) => (enough = resolve));
      const ended = (name: string, failed: boolean) => {
        if (name !== 'clob.settle.sweep') return;
        if (failed) failedSweeps++;
        else completedSweeps++;
        if (completedSweeps >= COMPLETED_SWEEPS && failedSweeps >= FAILED_SWEEPS) enough();
      };
      const real = new Map<string, () => void>();
      const realEnded = (name: string) => new Promise<void>((resolve) => real.set(name, resolve));
      const sentDone = realEnded('outbound.send');
      const settleDone = realEnded('clob.settle.market');
      workers = startWorkers({
        connection: blocking,
        prefix,
        log: pino({ level: 'silent' }),
        concurrency: { platform: 4 },
        processors: {
          'outbound.send': async () => 'sent',
          'clob.settle.market': async () => {
            throw new Error('settlement refused');
          },
          // Alternate failing and succeeding runs, as a sweep does while the chain comes and goes.
          'clob.settle.sweep': async () => {
            if (++sweeps % 5 !== 0) throw new Error('chain unreachable');
            return 'swept';
          },
        },
        events: {
          onCompleted: (job) => (ended(job.name, false), real.get(job.name)?.()),
          onFailed: (job) => job && (ended(job.name, true), real.get(job.name)?.()),
        },
      });

      const sent = await queues.enqueue('outbound.send', { outboundId: 'real-send' });
      await sentDone;
      await queues.enqueue('clob.settle.market', { marketId: '00000000-0000-4000-8000-000000000001' }, { attempts: 1 });
      await settleDone;

      await queues.schedule('test-sweep', 'clob.settle.sweep', { scheduledBy: 'test' }, 1);
      await sweptEnough;
      await queues.unschedule('test-sweep', 'clob.settle.sweep');

      const platform = queues.get('platform');
      const completed = await platform.getJobs(['completed'], 0, -1);
      const failed = await platform.getJobs(['failed'], 0, -1);
      expect(completed.map((j) => j.name)).toEqual(['outbound.send']);
      expect(completed[0]!.id).toBe(sent.id);
      expect(failed.map((j) => [j.name, j.failedReason])).toEqual([['clob.settle.market', 'settlement refused']]);
    } finally {
      await Promise.all(workers.map((w) => w.close()));
      await queues.close();
      await producer.quit();
      await blocking.quit();
      await deleteKeys(prefix);
    }
  }, 60_000);

  it('trims a queue by the largest count its jobs declare, so a real job never cuts a neighbour shorter', async () => {
    const prefix = uniquePrefix('retention-count');
    const producer = createRedisConnection(TEST_REDIS_URL, 'general');
    const queues = new JobQueues(producer, prefix);
    try {
      const platformKeep = Object.values<JobDefinition>(jobCatalog).filter((d) => d.queue === 'platform');
      const largest = (field: 'keepCompleted' | 'keepFailed') => Math.max(...platformKeep.map((d) => d[field] ?? 0));
      const settle = await queues.enqueue('clob.settle.market', { marketId: '00000000-0000-4000-8000-000000000002' });
      expect(jobCatalog['clob.settle.market'].keepCompleted).toBeLessThan(largest('keepCompleted'));
      expect(settle.opts).toMatchObject({
        removeOnComplete: { count: largest('keepCompleted') },
        removeOnFail: { count: largest('keepFailed') },
      });
      const sweep = await queues.enqueue('clob.settle.sweep', { scheduledBy: 'operator' });
      expect(sweep.opts).toMatchObject({ removeOnComplete: true, removeOnFail: true });
    } finally {
      await queues.close();
      await producer.quit();
      await deleteKeys(prefix);
    }
  });
});
