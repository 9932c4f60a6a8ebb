/**
 * A job whose worker died mid-run (its lock no longer renewed) runs again on a live worker within
 * its lock's duration and two stall checks (20 s + 2 × 5 s), where BullMQ's defaults (30 s locks,
 * a check every 30 s) took up to a minute; meanwhile its deduplication key holds.
 */
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { JobQueues } from '../../jobs/queues.js';
import { createRedisConnection } from '../../jobs/redis-connection.js';
import { LOCK_MS, STALLED_CHECK_MS, startWorkers } from '../../jobs/workers.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

const log = pino({ level: 'silent' });
const prefix = uniquePrefix('stalled');
const connections: Redis[] = [];
const workers: Worker[] = [];
const connect = (role: 'blocking' | 'producer') => {
  const c = createRedisConnection(TEST_REDIS_URL, role);
  connections.push(c);
  return c;
};
afterAll(async () => {
  await Promise.all(workers.map((w) => w.close(true)));
  for (const c of connections) c.disconnect();
  await deleteKeys(prefix);
});

describe('a job whose worker died', () => {
  it('runs again on a live worker within its lock and two stall checks', async () => {
    const queues = new JobQueues(connect('producer'), prefix);
    const marketId = '00000000-0000-4000-8000-000000000001';
    let started!: () => void;
    const startedOnFirst = new Promise<void>((resolve) => {
      started = resolve;
    });
    // The first worker takes the job and never finishes it; then it stops without a word (its
    // process "dies": no completion, no failure, its lock is no longer renewed).
    const [first] = startWorkers({
      connection: connect('blocking'),
      prefix,
      log,
      processors: {
        'clob.settle.market': () => {
          started();
          return new Promise(() => undefined);
        },
      },
    });
    workers.push(first!);
    const dedup = { deduplication: { id: `clob-settle-${marketId}` } };
    await queues.enqueue('clob.settle.market', { marketId }, dedup);
    await startedOnFirst;
    await first!.close(true);
    // Meanwhile the deduplication key holds: a second planning request is not queued.
    await queues.enqueue('clob.settle.market', { marketId }, dedup);
    expect(await queues.get('platform').getJobCounts('waiting', 'active')).toEqual({ waiting: 0, active: 1 });

    let ranAgain!: (ms: number) => void;
    const rerun = new Promise<number>((resolve) => {
      ranAgain = resolve;
    });
    const deadAt = Date.now();
    workers.push(
      ...startWorkers({
        connection: connect('blocking'),
        prefix,
        log,
        processors: {
          'clob.settle.market': async () => {
            ranAgain(Date.now() - deadAt);
            return null;
          },
        },
      }),
    );
    const bound = LOCK_MS + 2 * STALLED_CHECK_MS;
    expect(bound).toBeLessThan(60_000); // what BullMQ's defaults could take
    const ms = await Promise.race([
      rerun,
      new Promise<number>((_, reject) => setTimeout(() => reject(new Error(`the stalled job never ran again within ${bound} ms`)), bound)),
    ]);
    expect(ms).toBeLessThan(bound);
  }, 60_000);
});
