/**
 * Positions requests gathered (src/services/family-c/positions-requests.ts): requests made while
 * one waits are that one run, which starts no sooner than POSITIONS_GATHER_MS after the first;
 * a request after the run ended is a run of its own (none is lost to the deduplication).
 */
import { Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { JobQueues } from '../../jobs/queues.js';
import { createRedisConnection } from '../../jobs/redis-connection.js';
import { POSITIONS_GATHER_MS, POSITIONS_REQUEST } from '../../src/services/family-c/positions-requests.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

describe('positions requests', () => {
  it('gathers the requests of the window into one run, and a later request into another', async () => {
    const prefix = uniquePrefix('positions-requests');
    const connection = createRedisConnection(TEST_REDIS_URL, 'general');
    const queues = new JobQueues(connection, prefix);
    const workerConnection = createRedisConnection(TEST_REDIS_URL, 'blocking');
    const runs: Array<{ at: number; reason: string }> = [];
    let ran: () => void = () => undefined;
    const worker = new Worker(
      'index',
      async (job) => {
        runs.push({ at: performance.now(), reason: (job.data as { reason: string }).reason });
        ran();
      },
      { connection: workerConnection, prefix },
    );
    const nextRun = () => new Promise<void>((resolve) => (ran = resolve));
    try {
      const firstRun = nextRun();
      const first = performance.now();
      await queues.enqueue('clob.positions.apply', { reason: 'settlement' }, POSITIONS_REQUEST);
      for (const reason of ['balance', 'settlement', 'balance']) {
        await new Promise((resolve) => setTimeout(resolve, POSITIONS_GATHER_MS / 5));
        await queues.enqueue('clob.positions.apply', { reason }, POSITIONS_REQUEST);
      }
      await firstRun;
      expect(runs).toHaveLength(1);
      expect(runs[0]!.reason).toBe('settlement');
      expect(runs[0]!.at - first).toBeGreaterThanOrEqual(POSITIONS_GATHER_MS - 5);
      const index = queues.get('index');
      await expect
        .poll(() => index.getJobCounts('completed', 'delayed', 'waiting', 'active'))
        .toMatchObject({
          completed: 1,
          delayed: 0,
          waiting: 0,
          active: 0,
        });

      const secondRun = nextRun();
      await queues.enqueue('clob.positions.apply', { reason: 'resolution' }, POSITIONS_REQUEST);
      await secondRun;
      expect(runs.map((r) => r.reason)).toEqual(['settlement', 'resolution']);
    } finally {
      await worker.close();
      await workerConnection.quit();
      await queues.close();
      await connection.quit();
      await deleteKeys(prefix);
    }
  });
});
