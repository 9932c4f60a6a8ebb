/**
 * Heartbeat schedules do not leak: nodes with ever-new ids (restarts on other ports, other hosts)
 * all share one schedule, and the per-node schedules earlier versions left in Redis are removed.
 */
import { describe, expect, it } from 'vitest';
import { jobCatalog } from '../../jobs/catalog.js';
import { JobQueues } from '../../jobs/queues.js';
import { createRedisConnection } from '../../jobs/redis-connection.js';
import { declareSchedules, HEARTBEAT_SCHEDULE } from '../../jobs/schedules.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

describe('heartbeat schedules', () => {
  it('ten nodes leave one schedule; legacy per-node schedules are removed', async () => {
    const prefix = uniquePrefix('schedules');
    const connection = createRedisConnection(TEST_REDIS_URL, 'general');
    const queues = new JobQueues(connection, prefix);
    try {
      const system = queues.get('system');
      for (const legacy of ['heartbeat:host-a:8080:api', 'heartbeat:host-b:9090:worker']) {
        await system.upsertJobScheduler(legacy, { every: 5_000 }, { name: 'system.heartbeat', data: { scheduledBy: legacy } });
      }
      const first = await declareSchedules(queues, { nodeId: 'node-0', heartbeatMs: 5_000 });
      expect(first.removedStale).toBe(2);
      for (let i = 1; i < 10; i++) await declareSchedules(queues, { nodeId: `node-${i}`, heartbeatMs: 5_000 });
      const ids = (await system.getJobSchedulers(0, -1)).map((s) => s.key ?? s.id);
      expect(ids).toEqual([HEARTBEAT_SCHEDULE]);
    } finally {
      await queues.close();
      await connection.quit();
      await deleteKeys(prefix);
    }
  });
});

describe('schedules through the catalog', () => {
  it('refuses a payload or an interval the catalog does not allow, and gives each run the catalog policy', async () => {
    const prefix = uniquePrefix('schedules-catalog');
    const connection = createRedisConnection(TEST_REDIS_URL, 'general');
    const queues = new JobQueues(connection, prefix);
    try {
      await expect(queues.schedule('clob-positions', 'clob.positions.apply', { reason: 7 } as never, 10_000)).rejects.toThrow(
        /invalid payload for job clob\.positions\.apply/,
      );
      await expect(queues.schedule('clob-positions', 'clob.positions.apply', { reason: 'schedule' }, 0)).rejects.toThrow(
        /invalid schedule clob-positions/,
      );
      const index = queues.get('index');
      expect(await index.getJobSchedulers(0, -1)).toEqual([]);

      await queues.schedule('clob-positions', 'clob.positions.apply', { reason: 'schedule' }, 10_000);
      const scheduler = await index.getJobScheduler('clob-positions');
      const definition = jobCatalog['clob.positions.apply'];
      expect(scheduler).toMatchObject({ name: 'clob.positions.apply', every: 10_000 });
      expect(scheduler?.template).toMatchObject({
        data: { reason: 'schedule' },
        opts: {
          attempts: definition.attempts,
          // A scheduled run removes itself, completed or failed (job-retention.test.ts).
          removeOnComplete: true,
          removeOnFail: true,
        },
      });
      await queues.unschedule('clob-positions', 'clob.positions.apply');
      expect(await index.getJobSchedulers(0, -1)).toEqual([]);
    } finally {
      await queues.close();
      await connection.quit();
      await deleteKeys(prefix);
    }
  });
});
