/**
 * A real API instance for inject() tests: real Redis (own prefix), a real SQLite database,
 * real queues. Extra route plugins (the family under test) are passed in.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import type { DatabaseHandle } from '../../db/database.js';
import { JobQueues } from '../../jobs/queues.js';
import { buildApp } from '../../src/api/app.js';
import { createMetrics } from '../../src/infra/metrics.js';
import { createReadinessProbe } from '../../src/services/readiness.service.js';
import { createAuditLog } from '../../src/services/operator-audit.service.js';
import { createOperatorAccess, DEFAULT_SESSION_SETTINGS } from '../../src/services/operators/operator-access.js';
import type { SessionSettings } from '../../src/services/operators/sessions.service.js';
import { sqliteDatabase } from './databases.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from './redis.js';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestApp {
  app: FastifyInstance;
  db: DatabaseHandle;
  queues: JobQueues;
  prefix: string;
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
  const app = await buildApp({
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    version: 'test',
    redis,
    rateLimit: { readPerMinute: options.readPerMinute ?? 600, writePerMinute: options.writePerMinute ?? 300, nameSpace: prefix },
    metrics: createMetrics(),
    adminToken: TEST_ADMIN_TOKEN,
    metricsToken: options.metricsToken,
    dashboardQueues: [...queues.queues.values()],
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
    async close() {
      await app.close();
      await queues.close();
      redis.disconnect();
      producer.disconnect();
      if (!options.db) await db.close();
      await deleteKeys(prefix);
    },
  };
}
