/**
 * The tx-build round trip (TxBuildClient.request → Redis → Worker → builder → result) against a
 * bare BullMQ round trip (queue.add + job.waitUntilFinished through a Worker that returns its
 * input) on the same Redis in the same run, N sequential requests each after a warm-up. The
 * ratio (ours / bare) is the cost of the catalog validation, DomainError envelope and client.
 * Needs Redis: REDIS_URL or 127.0.0.1:6379. Run standalone: `npx tsx bench/queue.bench.ts`.
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { Queue, QueueEvents, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { Type } from 'typebox';
import { txBuilderRegistry, txBuildProcessor } from '../jobs/processors/tx-build.processor.js';
import { JobQueues } from '../jobs/queues.js';
import { createRedisConnection } from '../jobs/redis-connection.js';
import { TxBuildClient } from '../jobs/tx-build.client.js';
import { startWorkers } from '../jobs/workers.js';
import { formatMs, summarize, timeMs, type Summary } from './stats.js';

export interface QueueBenchResult {
  name: string;
  ours: Summary;
  bare: Summary;
  ratioP50: number;
  ratioP99: number;
}

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const BLOCK = 250;

async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
}

export async function run(n = 2000, warmup = 200): Promise<QueueBenchResult> {
  const prefix = `pmxbench:${randomBytes(4).toString('hex')}`;
  const connections: Redis[] = [];
  const connect = (role: 'blocking' | 'producer' | 'general') => {
    const connection = createRedisConnection(REDIS_URL, role, `bench-${role}`);
    connections.push(connection);
    return connection;
  };
  const log = pino({ level: 'silent' });
  const params = { market: 12, side: 'YES', amount: 1_000_000, wallet: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin' };

  // Ours: the catalog-validated enqueue, the tx-build processor and the request/reply client.
  const queues = new JobQueues(connect('producer'), prefix);
  const schemas = {
    'bench.echo': Type.Object({ market: Type.Integer(), side: Type.String(), amount: Type.Integer(), wallet: Type.String() }),
  };
  const client = new TxBuildClient<{ 'bench.echo': (p: typeof params) => Promise<typeof params> }>(
    queues,
    connect('blocking'),
    10_000,
    schemas,
  );
  const workers = startWorkers({
    connection: connect('blocking'),
    prefix,
    processors: { 'tx.build': txBuildProcessor(txBuilderRegistry([['bench.echo', async (p: typeof params) => p]], schemas)) },
    log,
    concurrency: { 'tx-build': 1 },
  });
  // Bare: the same round trip with nothing but BullMQ, same job retention.
  const bareQueue = new Queue('bare', { connection: connect('producer'), prefix });
  const bareEvents = new QueueEvents('bare', { connection: connect('blocking'), prefix });
  const bareWorker = new Worker('bare', async (job) => ({ ok: true, value: job.data as unknown }), {
    connection: connect('blocking'),
    prefix,
    concurrency: 1,
  });

  const ours = () => client.request('bench.echo', params);
  const bare = async () => {
    const job = await bareQueue.add('echo', params, { attempts: 1, removeOnComplete: { count: 200 }, removeOnFail: { count: 500 } });
    return job.waitUntilFinished(bareEvents, 10_000);
  };

  try {
    await Promise.all([
      client.ready(),
      bareEvents.waitUntilReady(),
      bareWorker.waitUntilReady(),
      ...workers.map((w) => w.waitUntilReady()),
    ]);
    for (let i = 0; i < warmup; i++) {
      await ours();
      await bare();
    }
    const oursMs: number[] = [];
    const bareMs: number[] = [];
    // Alternate blocks (and which side goes first) so that drift (GC, a noisy neighbour) lands on both sides alike.
    for (let done = 0, block = 0; done < n; done += BLOCK, block++) {
      const count = Math.min(BLOCK, n - done);
      const sides: Array<[() => Promise<unknown>, number[]]> = [
        [ours, oursMs],
        [bare, bareMs],
      ];
      if (block % 2 === 1) sides.reverse();
      for (const [body, samples] of sides) for (let i = 0; i < count; i++) samples.push(await timeMs(body));
    }
    const result: QueueBenchResult = {
      name: 'queue.round-trip',
      ours: summarize(oursMs),
      bare: summarize(bareMs),
      ratioP50: 0,
      ratioP99: 0,
    };
    result.ratioP50 = result.ours.p50 / result.bare.p50;
    result.ratioP99 = result.ours.p99 / result.bare.p99;
    console.log(
      `queue round trip: p50 ${formatMs(result.ours.p50)} p99 ${formatMs(result.ours.p99)} | ` +
        `bare bullmq p50 ${formatMs(result.bare.p50)} p99 ${formatMs(result.bare.p99)} | ` +
        `ratio p50 ${result.ratioP50.toFixed(2)}x p99 ${result.ratioP99.toFixed(2)}x (N=${n} each, sequential, after ${warmup} warm-up)`,
    );
    return result;
  } finally {
    await Promise.all([...workers, bareWorker].map((w) => w.close()));
    await Promise.all([client.close(), bareEvents.close(), queues.close(), bareQueue.close()]);
    await deleteKeys(connections[0]!, prefix);
    await Promise.all(connections.map((c) => c.quit()));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
}
