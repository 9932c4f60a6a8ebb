import { QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runTxBuild, txBuilderRegistry, type TxBuilder } from '../../jobs/processors/tx-build.processor.js';
import { JobQueues } from '../../jobs/queues.js';
import { createRedisConnection } from '../../jobs/redis-connection.js';
import { TxBuildClient } from '../../jobs/tx-build.client.js';
import { DomainError } from '../../src/domain/errors.js';
import { TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { log, type SampleCatalog, sampleParams, drained, harness, waitForWaiting } from './tx-build.fixture.js';

describe('tx-build request/reply through a real BullMQ worker', () => {
  const calls = new Map<string, number>();
  const count = (kind: string) => calls.set(kind, (calls.get(kind) ?? 0) + 1);
  const builders = new Map<string, TxBuilder>([
    [
      'sample.echo',
      async (params: { wallet: string; amount?: number }) => (
        count('sample.echo'),
        { transaction: `tx-for-${params.wallet}`, amount: params.amount }
      ),
    ],
    [
      'sample.refuse',
      async () => {
        count('sample.refuse');
        throw new DomainError('conflict', 'MARKET_CLOSED', 'The market is closed', { marketStatus: 'resolved' });
      },
    ],
    [
      'sample.crash',
      async () => {
        count('sample.crash');
        throw new Error('builder bug');
      },
    ],
    [
      'sample.slowRpc',
      async () => {
        throw new Error('rpc request timed out'); // the builder's own failure, not the wait's deadline
      },
    ],
  ]);
  let h: Awaited<ReturnType<typeof harness>>;
  beforeAll(async () => {
    h = await harness(builders);
  });
  afterAll(async () => {
    await h?.close();
  });

  it("returns the builder's value", async () => {
    const value = await h.client.request('sample.echo', { wallet: 'W1', amount: 5 });
    expect(value).toEqual({ transaction: 'tx-for-W1', amount: 5 });
    const many = await Promise.all([1, 2, 3, 4, 5].map((i) => h.client.request('sample.echo', { wallet: `W${i}` })));
    expect(many.map((v) => v.transaction)).toEqual(['tx-for-W1', 'tx-for-W2', 'tx-for-W3', 'tx-for-W4', 'tx-for-W5']);
  });

  it('brings a DomainError back as the same DomainError, without retrying the job', async () => {
    const error = await h.client.request('sample.refuse', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      kind: 'conflict',
      code: 'MARKET_CLOSED',
      message: 'The market is closed',
      extra: { marketStatus: 'resolved' },
    });
    await drained(h.queues);
    expect(calls.get('sample.refuse')).toBe(1);
    const [job] = await h.queues
      .get('tx-build')
      .getJobs(['completed'])
      .then((jobs) => jobs.filter((j) => j.data.kind === 'sample.refuse'));
    expect(job?.attemptsMade).toBe(1);
    expect(await job?.getState()).toBe('completed');
  });

  it('answers an unknown builder with an invalid DomainError', async () => {
    const error = await h.client.request('sample.nope', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'invalid', code: 'UNKNOWN_BUILDER' });
  });

  it('refuses parameters that do not match their schema before enqueueing anything', async () => {
    const before = calls.get('sample.echo') ?? 0;
    await expect(h.client.request('sample.echo', { wallet: 5 } as never)).rejects.toThrow(
      /invalid payload for job tx\.build: sample\.echo \/params\/wallet/,
    );
    await expect(h.client.request('sample.echo', { amount: 1.5 } as never)).rejects.toThrow(
      /invalid payload for job tx\.build: sample\.echo/,
    );
    await expect(h.client.request('sample.ghost' as never, {} as never)).rejects.toThrow(/no parameter schema for sample\.ghost/);
    const counts = await h.queues.get('tx-build').getJobCounts('waiting', 'active', 'delayed');
    expect(counts).toEqual({ waiting: 0, active: 0, delayed: 0 });
    expect(calls.get('sample.echo') ?? 0).toBe(before);
  });

  it('answers a job whose parameters do not match the schema INVALID_JOB on the worker, without building', async () => {
    const before = calls.get('sample.echo') ?? 0;
    const connection = createRedisConnection(TEST_REDIS_URL, 'blocking');
    const events = new QueueEvents('tx-build', { connection, prefix: h.queues.prefix });
    try {
      await events.waitUntilReady();
      // As another process (or an older version) might enqueue it: the catalog's payload, the kind's parameters wrong.
      const job = await h.queues.enqueue('tx.build', { kind: 'sample.echo', params: { wallet: ['W1'] } });
      expect(await job.waitUntilFinished(events, 5_000)).toMatchObject({
        ok: false,
        error: { kind: 'invalid', code: 'INVALID_JOB', message: expect.stringMatching(/malformed parameters for sample\.echo: \/wallet/) },
      });
    } finally {
      await events.close();
      await connection.quit();
    }
    expect(calls.get('sample.echo') ?? 0).toBe(before);
  });

  it('fails the request once when a builder crashes (attempts: 1)', async () => {
    await expect(h.client.request('sample.crash', {})).rejects.toThrow(/transaction builder failed: builder bug/);
    await drained(h.queues);
    const [job] = await h.queues
      .get('tx-build')
      .getJobs(['failed'])
      .then((jobs) => jobs.filter((j) => j.data.kind === 'sample.crash'));
    expect(await job?.getState()).toBe('failed');
    expect(calls.get('sample.crash')).toBe(1);
  });

  it('reports a builder failure whose message says "timed out" as a failure, not as no worker answering', async () => {
    const error = await h.client.request('sample.slowRpc', {}).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ message: 'transaction builder failed: rpc request timed out' });
  });
});

describe('tx-build with no worker running', () => {
  let h: Awaited<ReturnType<typeof harness>>;
  beforeAll(async () => {
    h = await harness(undefined, 300);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('rejects with unavailable/WORKERS_UNAVAILABLE after the timeout and withdraws the job', async () => {
    const started = Date.now();
    const error = await h.client.request('sample.echo', { wallet: 'W1' }).catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ kind: 'unavailable', code: 'WORKERS_UNAVAILABLE' });
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(3_000);
    const counts = await h.queues.get('tx-build').getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed');
    expect(counts).toEqual({ waiting: 0, active: 0, delayed: 0, completed: 0, failed: 0 });
  });
});

describe('tx-build in a process that also runs the worker role (builds handed over locally)', () => {
  const done: string[] = [];
  let release: (() => void) | undefined;
  const builders = new Map<string, TxBuilder>([
    ['sample.echo', async (params: { wallet: string }) => ({ transaction: `local-${params.wallet}` })],
    [
      'sample.refuse',
      async () => {
        throw new DomainError('conflict', 'MARKET_CLOSED', 'The market is closed');
      },
    ],
    [
      'sample.crash',
      async () => {
        throw new Error('builder bug');
      },
    ],
    // Holds its slot until released: the next request finds no local slot free.
    ['sample.nope', () => new Promise((resolve) => (release = () => resolve({ transaction: 'held' })))],
  ]);
  let h: Awaited<ReturnType<typeof harness>>;
  beforeAll(async () => {
    h = await harness(undefined, 300); // no BullMQ worker at all
    h.client.runLocally({
      run: (payload) => runTxBuild(txBuilderRegistry(builders, sampleParams), payload, log),
      concurrency: 1,
      onDone: (outcome) => done.push(outcome),
    });
  });
  afterAll(async () => {
    release?.();
    await h?.close();
  });

  it('answers values, refusals and crashes as the queue path does, without adding a job', async () => {
    expect(await h.client.request('sample.echo', { wallet: 'W1' })).toEqual({ transaction: 'local-W1' });
    await expect(h.client.request('sample.refuse', {})).rejects.toMatchObject({ kind: 'conflict', code: 'MARKET_CLOSED' });
    await expect(h.client.request('sample.crash', {})).rejects.toThrow(/transaction builder failed: builder bug/);
    const counts = await h.queues.get('tx-build').getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed');
    expect(counts).toEqual({ waiting: 0, active: 0, delayed: 0, completed: 0, failed: 0 });
    expect(done).toEqual(['completed', 'completed', 'failed']);
  });

  it('times out a build that takes too long (503), and beyond its concurrency sends builds to the queue', async () => {
    const held = h.client.request('sample.nope', {}).catch((e: unknown) => e);
    expect(await held).toMatchObject({ kind: 'unavailable', code: 'WORKERS_UNAVAILABLE' });
    // The timed-out build still holds the only local slot: this one is enqueued for a worker (none runs here).
    const queued = h.client.request('sample.echo', { wallet: 'W2' }).catch((e: unknown) => e);
    const waiting = await waitForWaiting(h.queues);
    expect(waiting).toBe(1);
    expect(await queued).toMatchObject({ code: 'WORKERS_UNAVAILABLE' }); // withdrawn at its timeout
    release!();
    // With the slot back, builds are local again.
    await vi.waitFor(async () => expect(await h.client.request('sample.echo', { wallet: 'W3' })).toEqual({ transaction: 'local-W3' }));
  });
});

describe('tx-build on an API-only node while Redis is away', () => {
  it('answers unavailable/QUEUE_UNAVAILABLE at once instead of hanging', async () => {
    const dead = { retryStrategy: () => null, lazyConnect: true };
    const producer = new Redis('redis://127.0.0.1:1', { ...dead, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    const events = new Redis('redis://127.0.0.1:1', { ...dead, maxRetriesPerRequest: null });
    const queues = new JobQueues(producer, uniquePrefix('txbuild-dead'));
    const client = new TxBuildClient<SampleCatalog>(queues, events, 5_000, sampleParams);
    try {
      const started = Date.now();
      await expect(client.request('sample.echo', { wallet: 'W' })).rejects.toMatchObject({
        kind: 'unavailable',
        code: 'QUEUE_UNAVAILABLE',
      });
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await client.close().catch(() => undefined);
      await queues.close().catch(() => undefined);
      producer.disconnect();
      events.disconnect();
    }
  });
});
