/**
 * The job catalog's guards at boot and at enqueue: a builder without a parameter schema, a job
 * without a processor (or a processor without a job), and a payload that does not match its
 * job's schema, refused before anything reaches Redis.
 */
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { assertProcessorsCover, jobCatalog } from '../../jobs/catalog.js';
import { txBuilderRegistry, type TxBuilder } from '../../jobs/processors/tx-build.processor.js';
import { JobQueues } from '../../jobs/queues.js';
import { createRedisConnection } from '../../jobs/redis-connection.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

describe('job catalog guards', () => {
  it('txBuilderRegistry fails at boot for a builder without a parameter schema', () => {
    const echo: TxBuilder = async () => ({});
    expect(() =>
      txBuilderRegistry(
        [
          ['sample.echo', echo],
          ['sample.unschemed', echo],
        ],
        { 'sample.echo': Type.Object({}) },
      ),
    ).toThrow(/without a parameter schema: sample\.unschemed/);
  });

  it('assertProcessorsCover names a job without a processor and a processor without a job', () => {
    const all = Object.keys(jobCatalog);
    expect(() => assertProcessorsCover(all)).not.toThrow();
    expect(() => assertProcessorsCover(all.filter((n) => n !== 'tx.build'))).toThrow(/jobs without a processor: tx\.build/);
    expect(() => assertProcessorsCover([...all, 'ghost.job'])).toThrow(/processors for unknown jobs: ghost\.job/);
  });

  it('JobQueues.enqueue rejects an invalid payload and adds nothing', async () => {
    const prefix = uniquePrefix('enqueue');
    const connection = createRedisConnection(TEST_REDIS_URL, 'producer');
    const queues = new JobQueues(connection, prefix);
    try {
      await expect(queues.enqueue('tx.build', { kind: '', params: {} })).rejects.toThrow(/invalid payload for job tx\.build: \/kind/);
      await expect(queues.enqueue('tx.build', { kind: 'x' } as never)).rejects.toThrow(/invalid payload for job tx\.build/);
      await expect(queues.enqueue('system.heartbeat', { scheduledBy: 42 } as never)).rejects.toThrow(
        /invalid payload for job system\.heartbeat/,
      );
      expect(await queues.get('tx-build').count()).toBe(0);
      const job = await queues.enqueue('system.heartbeat', { scheduledBy: 'test' });
      expect(job.opts.attempts).toBe(jobCatalog['system.heartbeat'].attempts);
      expect(await queues.get('system').count()).toBe(1);
    } finally {
      await queues.close();
      await connection.quit();
      await deleteKeys(prefix);
    }
  });
});
