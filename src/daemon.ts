/**
 * Starts every part of the daemon this process runs (by ROLES) and returns a handle whose
 * `stop()` shuts them down in the reverse order: HTTP first (no new work), then workers (active
 * jobs finish), queues, Redis, the chain and the database.
 */
import fs from 'node:fs';
import os from 'node:os';
import type { Worker } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { hasRole, type Config } from '../config/config.js';
import { openDatabase, type DatabaseHandle } from '../db/database.js';
import { migrateToLatest } from '../db/migrator.js';
import { assertProcessorsCover } from '../jobs/catalog.js';
import { heartbeatProcessor } from '../jobs/processors/heartbeat.processor.js';
import { txBuildProcessor, type TxBuilder } from '../jobs/processors/tx-build.processor.js';
import type { ProcessorMap } from '../jobs/processor.js';
import { JobQueues } from '../jobs/queues.js';
import { createRedisConnection } from '../jobs/redis-connection.js';
import { declareSchedules } from '../jobs/schedules.js';
import { TxBuildClient } from '../jobs/tx-build.client.js';
import { startWorkers } from '../jobs/workers.js';
import { buildApp } from './api/app.js';
import { startEmbeddedRedis, type EmbeddedRedis } from './infra/embedded-redis.js';
import type { Logger } from './infra/logger.js';
import { createMetrics, type DaemonMetrics } from './infra/metrics.js';
import { createReadinessProbe } from './infra/readiness.js';
import { resolveAdminToken } from './infra/secret-file.js';
import { VERSION } from './infra/version.js';

export interface Daemon {
  app?: FastifyInstance;
  /** Where the HTTP facade listens, e.g. http://127.0.0.1:8080 (undefined without the api role). */
  url?: string;
  db: DatabaseHandle;
  queues: JobQueues;
  redisUrl: string;
  metrics: DaemonMetrics;
  stop(): Promise<void>;
}

export async function startDaemon(config: Config, log: Logger): Promise<Daemon> {
  const cleanups: Array<[string, () => Promise<unknown>]> = [];
  const stop = async () => {
    for (const [name, cleanup] of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        log.error({ err: error, part: name }, 'error during shutdown');
      }
    }
    cleanups.length = 0;
  };

  try {
    fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    const admin = resolveAdminToken(config.adminToken, config.dataDir);
    log.info({ adminTokenFile: admin.file ?? '(from ADMIN_TOKEN)' }, 'admin token ready');

    let embeddedRedis: EmbeddedRedis | undefined;
    if (config.redisUrl === undefined) {
      embeddedRedis = await startEmbeddedRedis(config.dataDir, log);
      cleanups.push(['embedded redis', () => embeddedRedis!.stop()]);
    }
    const redisUrl = config.redisUrl ?? embeddedRedis!.url;

    const db = openDatabase(config.databaseUrl, config.dataDir);
    cleanups.push(['database', () => db.close()]);
    await migrateToLatest(db.db, log);
    log.info({ database: db.location, dialect: db.dialect }, 'database ready');

    const connections: Redis[] = [];
    const connect = (role: 'blocking' | 'producer' | 'general', name: string) => {
      const connection = createRedisConnection(redisUrl, role, name);
      connections.push(connection);
      return connection;
    };
    cleanups.push(['redis connections', async () => Promise.all(connections.map((c) => c.quit().catch(() => c.disconnect())))]);

    const metrics = createMetrics({ defaultMetrics: true });
    const queues = new JobQueues(connect('producer', 'pmx-producer'), config.queuePrefix);
    cleanups.push(['queues', () => queues.close()]);
    metrics.setQueueDepthSource(async () => {
      const rows: Array<{ queue: string; state: string; count: number }> = [];
      for (const [queue, q] of queues.queues) {
        const counts = await q.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
        for (const [state, count] of Object.entries(counts)) rows.push({ queue, state, count });
      }
      return rows;
    });

    const nodeId = `${os.hostname()}:${config.port}:${config.roles.join('+')}`;
    const builders = new Map<string, TxBuilder>();
    const processors: ProcessorMap = {
      'system.heartbeat': heartbeatProcessor(db.db, { nodeId, roles: config.roles, version: VERSION, startedAt: new Date().toISOString() }),
      'tx.build': txBuildProcessor(builders),
    };
    assertProcessorsCover(Object.keys(processors));

    let workers: Worker[] = [];
    if (hasRole(config, 'worker')) {
      workers = startWorkers({
        connection: connect('blocking', 'pmx-worker'),
        prefix: config.queuePrefix,
        processors,
        log,
        events: {
          onCompleted: (job, ms) => {
            metrics.jobOutcomes.inc({ queue: job.queueName, job: job.name, outcome: 'completed' });
            metrics.jobDuration.observe({ queue: job.queueName, job: job.name }, ms / 1000);
          },
          onFailed: (job) => metrics.jobOutcomes.inc({ queue: job?.queueName ?? 'unknown', job: job?.name ?? 'unknown', outcome: 'failed' }),
        },
      });
      cleanups.push(['workers', () => Promise.all(workers.map((w) => w.close()))]);
      await declareSchedules(queues, { nodeId, heartbeatMs: config.heartbeatIntervalMs });
    }

    const daemon: Daemon = { db, queues, redisUrl, metrics, stop };
    if (hasRole(config, 'api')) {
      const txBuild = new TxBuildClient(queues, connect('blocking', 'pmx-tx-events'), config.txBuildTimeoutMs);
      cleanups.push(['tx-build client', () => txBuild.close()]);
      await txBuild.ready();
      const app = await buildApp({
        log,
        version: VERSION,
        redis: connect('general', 'pmx-ratelimit'),
        rateLimit: { ...config.rateLimit, nameSpace: config.queuePrefix },
        metrics,
        adminToken: admin.token,
        dashboardQueues: [...queues.queues.values()],
        readiness: createReadinessProbe({
          db: db.db,
          redis: connect('general', 'pmx-ready'),
          heartbeatMaxAgeMs: config.heartbeatIntervalMs * 3 + 2_000,
        }),
        routes: [],
      });
      cleanups.push(['http', () => app.close()]);
      daemon.url = await app.listen({ host: config.host, port: config.port });
      daemon.app = app;
      log.info({ url: daemon.url, docs: `${daemon.url}/docs`, dashboard: `${daemon.url}/admin/queues` }, 'HTTP API listening');
    }
    return daemon;
  } catch (error) {
    await stop();
    throw error;
  }
}
