/**
 * A real API instance for inject() tests: real Redis (own prefix), a real SQLite database,
 * real queues, wired as the daemon wires them (the queue directory behind the job dashboard,
 * `pmx_queue_jobs` and the Nodes page). Extra route plugins (the family under test) are passed in.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import type { DatabaseHandle } from '../../db/database.js';
import { JobQueues } from '../../jobs/queues.js';
import { buildApp } from '../../src/api/app.js';
import { createMetrics, type DaemonMetrics } from '../../src/infra/metrics.js';
import { depthSamples, QueueDirectory } from '../../jobs/queue-directory.js';
import { matcherNodes } from '../../src/services/daemon-nodes.service.js';
import { nodesOverview } from '../../src/services/nodes-overview.service.js';
import { createReadinessProbe } from '../../src/services/readiness.service.js';
import { createAuditLog } from '../../src/services/operator-audit.service.js';
import { createOperatorAccess, DEFAULT_SESSION_SETTINGS } from '../../src/services/operators/operator-access.js';
import type { SessionSettings } from '../../src/services/operators/sessions.service.js';
import { sqliteDatabase } from './databases.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from './redis.js';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';
/** The beat interval the test app's Nodes page assumes (a node is gone after goneAfterMs of it). */
export const TEST_BEAT_INTERVAL_MS = 5_000;

export interface TestApp {
  app: FastifyInstance;
  db: DatabaseHandle;
  queues: JobQueues;
  prefix: string;
  metrics: DaemonMetrics;
  close(): Promise<void>;
}

export async function createTestApp(
  options: {
    routes?: FastifyPluginAsync[];
    readPerMinute?: number;
    writePerMinute?: number;
    db?: DatabaseHandle;
    metricsToken?: string;
    sessions?: SessionSettings;
  } = {},
): Promise<TestApp> {
  const prefix = uniquePrefix('app');
  const db = options.db ?? (await sqliteDatabase());
  const redis = new Redis(TEST_REDIS_URL);
  const producer = new Redis(TEST_REDIS_URL, { enableOfflineQueue: true });
  const queues = new JobQueues(producer, prefix);
  // Read again at every ask, so that a test sees a matcher's queue as soon as its node beats.
  const directory = new QueueDirectory({
    queues,
    connection: producer,
    matcherNodes: () => matcherNodes(db.db, TEST_BEAT_INTERVAL_MS),
    maxAgeMs: 0,
  });
  const metrics = createMetrics();
  metrics.setQueueDepthSource(async () => depthSamples(await directory.depths({ skipUnreadable: true })));
  const app = await buildApp({
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    version: 'test',
    redis,
    rateLimit: { readPerMinute: options.readPerMinute ?? 600, writePerMinute: options.writePerMinute ?? 300, nameSpace: prefix },
    metrics,
    adminToken: TEST_ADMIN_TOKEN,
    metricsToken: options.metricsToken,
    dashboardQueues: directory,
    nodes: () =>
      nodesOverview({
        db: db.db,
        redis,
        queuePrefix: prefix,
        beatIntervalMs: TEST_BEAT_INTERVAL_MS,
        queueDepths: () => directory.depths(),
      }),
    readiness: createReadinessProbe({ db: db.db, redis }),
    routes: options.routes ?? [],
    audit: createAuditLog(db.db),
    operators: createOperatorAccess(db.db, TEST_ADMIN_TOKEN, options.sessions ?? DEFAULT_SESSION_SETTINGS),
  });
  await app.ready();
  return {
    app,
    db,
    queues,
    prefix,
    metrics,
    async close() {
      await app.close();
      await directory.close();
      await queues.close();
      redis.disconnect();
      producer.disconnect();
      if (!options.db) await db.close();
      await deleteKeys(prefix);
    },
  };
}
