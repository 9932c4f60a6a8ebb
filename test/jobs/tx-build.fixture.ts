// The sample builders of the tx-build tests (a catalog of five, with their parameter schemas), and a
// harness of queues, a client and optionally a worker on a Redis prefix of their own.
import { type Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { Type } from 'typebox';
import { txBuilderRegistry, txBuildProcessor, type TxBuilder } from '../../jobs/processors/tx-build.processor.js';
import { JobQueues } from '../../jobs/queues.js';
import { createRedisConnection } from '../../jobs/redis-connection.js';
import { TxBuildClient } from '../../jobs/tx-build.client.js';
import { startWorkers } from '../../jobs/workers.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

export const log = pino({ level: 'silent' });

/** The builders of this test, as a catalog: the client is typed by it as routes are by the real one. */
type Echo = { transaction: string; amount?: number };
export type SampleCatalog = {
  'sample.echo': (p: { wallet: string; amount?: number }) => Promise<Echo>;
  'sample.refuse': (p: Record<string, never>) => Promise<never>;
  'sample.crash': (p: Record<string, never>) => Promise<never>;
  'sample.nope': (p: Record<string, never>) => Promise<never>;
  'sample.slowRpc': (p: Record<string, never>) => Promise<never>;
};
/** Their parameter schemas, checked by the client before it enqueues and by the worker before it builds. */
const Nothing = Type.Object({});
export const sampleParams = {
  'sample.echo': Type.Object({ wallet: Type.String(), amount: Type.Optional(Type.Integer()) }),
  'sample.refuse': Nothing,
  'sample.crash': Nothing,
  'sample.nope': Nothing,
  'sample.slowRpc': Nothing,
};

/** Resolves once the tx-build queue holds no waiting, active or delayed job (no retry pending). */
export async function drained(queues: JobQueues): Promise<void> {
  for (;;) {
    const c = await queues.get('tx-build').getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    if (Object.values(c).every((n) => n === 0)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Queues, a tx-build client and (optionally) a worker on a prefix of their own. */
export async function harness(builders?: Map<string, TxBuilder>, timeoutMs = 5_000) {
  const prefix = uniquePrefix('txbuild');
  const connections: Redis[] = [];
  const connect = (role: 'blocking' | 'producer') => {
    const c = createRedisConnection(TEST_REDIS_URL, role);
    connections.push(c);
    return c;
  };
  const queues = new JobQueues(connect('producer'), prefix);
  const client = new TxBuildClient<SampleCatalog>(queues, connect('blocking'), timeoutMs, sampleParams);
  await client.ready();
  const workers: Worker[] = builders
    ? startWorkers({
        connection: connect('blocking'),
        prefix,
        processors: { 'tx.build': txBuildProcessor(txBuilderRegistry(builders, sampleParams)) },
        log,
      })
    : [];
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  return {
    queues,
    client,
    async close() {
      await Promise.all(workers.map((w) => w.close()));
      await client.close();
      await queues.close();
      await Promise.all(connections.map((c) => c.quit()));
      await deleteKeys(prefix);
    },
  };
}

/** Resolves with the tx-build queue's waiting count once a job waits there. */
export async function waitForWaiting(queues: JobQueues): Promise<number> {
  for (;;) {
    const { waiting } = await queues.get('tx-build').getJobCounts('waiting');
    if (waiting && waiting > 0) return waiting;
    await new Promise((r) => setTimeout(r, 10));
  }
}
