/**
 * Starts every part of the daemon this process runs (by ROLES) and returns a handle whose
 * `stop()` shuts them down in the reverse order: HTTP first (no new work), then workers (active
 * jobs finish), queues, Redis, the chain and the database.
 */
import { createAuditLog } from './services/operator-audit.service.js';
import { createOperatorAccess } from './services/operators/operator-access.js';
import { ConsoleSampler } from './services/console/console-sampler.js';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Worker } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { hasRole, type Config, type Role } from '../config/config.js';
import { openDatabase, type DatabaseHandle } from '../db/database.js';
import { migrateToLatest } from '../db/migrator.js';
import { assertProcessorsCover } from '../jobs/catalog.js';
import { heartbeatProcessor } from '../jobs/processors/heartbeat.processor.js';
import { runTxBuild, txBuildProcessor, txBuilderRegistry, type TxBuilder } from '../jobs/processors/tx-build.processor.js';
import type { ProcessorMap } from '../jobs/processor.js';
import { JobQueues } from '../jobs/queues.js';
import { createRedisConnection, whenReady, type ConnectionRole } from '../jobs/redis-connection.js';
import { declareSchedules } from '../jobs/schedules.js';
import { TxBuildClient } from '../jobs/tx-build.client.js';
import { startWorkers } from '../jobs/workers.js';
import { buildApp } from './api/app.js';
import { buildMetricsApp } from './api/metrics-server.js';
import type { ChainRuntime } from './chain/chain-runtime.js';
import type { Feature, FeatureContext } from './features/feature.js';
import { FEATURE_FACTORIES } from './features/index.js';
import { outboundFeature } from './features/outbound.feature.js';
import { openChainRuntime } from './features/open-chain-runtime.js';
import { startEmbeddedRedis, type EmbeddedRedis } from './infra/embedded-redis.js';
import type { Logger } from './infra/logger.js';
import { createMetrics, type DaemonMetrics } from './infra/metrics.js';
import { createReadinessProbe } from './services/readiness.service.js';
import { matcherNodes, startNodeBeat } from './services/daemon-nodes.service.js';
import { nodesOverview } from './services/nodes-overview.service.js';
import { depthSamples, QueueDirectory } from '../jobs/queue-directory.js';
import { moneyCounts } from './services/family-a/money-admin.service.js';
import { txBuildParams } from './services/tx-build/tx-build.params.js';
import { makeDataDirPrivate } from './infra/private-data-dir.js';
import { resolveAdminToken } from './infra/secret-file.js';
import { VERSION } from './infra/version.js';
import { namePortSetting } from './infra/port-in-use.js';
import { startSummary } from './start-summary.js';

/** Builds run at once in a process with both the api and worker roles; more queue (TxBuildClient). */
const LOCAL_TX_BUILDS = 64;

export interface Daemon {
  app?: FastifyInstance;
  /** Where the HTTP facade listens, e.g. http://127.0.0.1:8080 (undefined without the api role). */
  url?: string;
  /** Where METRICS_PORT's /metrics listens (undefined without METRICS_PORT). */
  metricsUrl?: string;
  db: DatabaseHandle;
  queues: JobQueues;
  redisUrl: string;
  dataDir: string;
  metrics: DaemonMetrics;
  chain: ChainRuntime;
  stop(): Promise<void>;
}

export async function startDaemon(config: Config, log: Logger): Promise<Daemon> {
  const cleanups: Array<[string, () => Promise<unknown>]> = [];
  // Aborted first: waits inside jobs (a transaction's confirmation) end, so the workers' close is quick.
  const stopping = new AbortController();
  const stop = async () => {
    stopping.abort();
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
    makeDataDirPrivate(config.dataDir);
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

    const nodeId = `${os.hostname()}:${config.port}:${config.roles.join('+')}`;
    // Leases and node beats need an identity per running process (a restarted daemon must not
    // inherit its predecessor's leases, and shows as a new node).
    const instanceId = `${nodeId}:${process.pid}:${randomUUID().slice(0, 8)}`;
    const identity = { nodeId: instanceId, roles: config.roles, version: VERSION, startedAt: new Date().toISOString() };
    const beat = startNodeBeat({ db: db.db, node: identity, intervalMs: config.heartbeatIntervalMs, log });
    cleanups.push(['node beat', () => beat.stop()]);

    const connections: Redis[] = [];
    const connect = (role: ConnectionRole, name: string) => {
      const connection = createRedisConnection(redisUrl, role, name);
      connections.push(connection);
      return connection;
    };
    cleanups.push(['redis connections', async () => Promise.all(connections.map((c) => c.quit().catch(() => c.disconnect())))]);

    const metrics = createMetrics({ defaultMetrics: true });
    const producer = connect('producer', 'pmx-producer');
    const queues = new JobQueues(producer, config.queuePrefix);
    cleanups.push(['queues', () => queues.close()]);
    // The catalog's queues and the matcher processes' own (for /metrics, the job dashboard, the Nodes page).
    const directory = new QueueDirectory({
      queues,
      connection: producer,
      matcherNodes: () => matcherNodes(db.db, config.heartbeatIntervalMs),
    });
    cleanups.push(['queue directory', () => directory.close()]);
    metrics.setQueueDepthSource(async () => depthSamples(await directory.depths({ skipUnreadable: true })));

    // Payouts waiting for funds and Family A transfers by state (operators alert on these).
    metrics.setMoneySource(() => moneyCounts({ db: db.db }));

    const chain = await openChainRuntime(config, log);
    cleanups.push(['chain', () => chain.close()]);

    let txBuild: TxBuildClient | undefined;
    if (hasRole(config, 'api')) {
      txBuild = new TxBuildClient(queues, connect('blocking', 'pmx-tx-events'), config.txBuildTimeoutMs, txBuildParams);
      cleanups.push(['tx-build client', () => txBuild!.close()]);
      await txBuild.ready();
    }

    // The console's per-minute samples of what this process counts (src/services/console/console-sampler.ts).
    const sampler = new ConsoleSampler(db.db, metrics.registry, nodeId, log, config.consoleSampleRetentionHours * 3_600_000);
    await sampler.start();
    cleanups.push(['console sampler', async () => sampler.stop()]);
    const ctx: FeatureContext = {
      config,
      log,
      db: db.db,
      dialect: db.dialect,
      queues,
      chain: chain.runtime,
      txBuild,
      adminToken: admin.token,
      instanceId,
      redis: connect,
      metrics,
      stopping: stopping.signal,
    };
    const features: Feature[] = [];
    for (const factory of FEATURE_FACTORIES) {
      const feature = await factory(ctx);
      features.push(feature);
      if (feature.close) cleanups.push([`${feature.name} clients`, () => feature.close!()]);
    }
    features.push(outboundFeature(ctx, features));

    const builders = txBuilderRegistry(
      features.flatMap((f) => Object.entries<TxBuilder>(f.txBuilders ?? {})),
      txBuildParams,
    );
    const processors: ProcessorMap = Object.assign(
      {
        'system.heartbeat': heartbeatProcessor(db.db, identity),
        'tx.build': txBuildProcessor(builders),
      },
      ...features.map((f) => f.processors ?? {}),
    );
    assertProcessorsCover(Object.keys(processors));
    if (txBuild && hasRole(config, 'worker')) {
      // This process builds too: hand builds to its own builders, not through Redis (see TxBuildClient).
      const buildLog = log.child({ job: 'tx.build', local: true });
      txBuild.runLocally({
        run: (payload) => runTxBuild(builders, payload, buildLog),
        concurrency: LOCAL_TX_BUILDS,
        onDone: (outcome, ms) => {
          metrics.jobOutcomes.inc({ queue: 'tx-build', job: 'tx.build', outcome });
          metrics.jobDuration.observe({ queue: 'tx-build', job: 'tx.build' }, ms / 1000);
        },
      });
    }

    let workers: Worker[] = [];
    if (hasRole(config, 'worker')) {
      workers = startWorkers({
        connection: connect('blocking', 'pmx-worker'),
        prefix: config.queuePrefix,
        processors,
        log,
        // Platform jobs mostly wait on the chain (a confirmation, a funding check): more of them at once.
        concurrency: { platform: 16 },
        events: {
          onCompleted: (job, ms) => {
            metrics.jobOutcomes.inc({ queue: job.queueName, job: job.name, outcome: 'completed' });
            metrics.jobDuration.observe({ queue: job.queueName, job: job.name }, ms / 1000);
          },
          onFailed: (job) =>
            metrics.jobOutcomes.inc({ queue: job?.queueName ?? 'unknown', job: job?.name ?? 'unknown', outcome: 'failed' }),
        },
      });
      cleanups.push(['workers', () => Promise.all(workers.map((w) => w.close()))]);
      await declareSchedules(queues, { nodeId, heartbeatMs: config.heartbeatIntervalMs });
      for (const feature of features) await feature.schedules?.();
    }
    for (const feature of features) {
      for (const [role, service] of Object.entries(feature.roleServices ?? {})) {
        if (!hasRole(config, role as Role)) continue;
        await service.start();
        cleanups.push([`${feature.name} ${role}`, () => service.stop()]);
      }
    }
    if (hasRole(config, 'indexer')) {
      for (const feature of features) {
        if (!feature.start) continue;
        await feature.start();
        cleanups.push([`${feature.name} listeners`, async () => feature.stop?.()]);
      }
    }

    const daemon: Daemon = { db, queues, redisUrl, dataDir: config.dataDir, metrics, chain: chain.runtime, stop };
    // GET /ready's checks, also in /metrics as pmx_ready_check (alerts on Redis or the database away).
    const readiness =
      hasRole(config, 'api') || config.metricsPort !== undefined
        ? createReadinessProbe({
            db: db.db,
            redis: connect('general', 'pmx-ready'),
            // Any node's workers count: an API-only node is ready when some worker builds its transactions.
            heartbeatMaxAgeMs: config.heartbeatIntervalMs * 3 + 2_000,
            chainSlot: () => chain.runtime.client.getSlot(),
            chainRole: hasRole(config, 'ledger') ? 'ledger' : 'process',
            extra: Object.assign({}, ...features.map((f) => f.readiness ?? {})),
          })
        : undefined;
    if (readiness) metrics.setReadinessSource(readiness);
    if (hasRole(config, 'api')) {
      const rateLimitRedis = connect('ratelimit', 'pmx-ratelimit');
      const operatorsRedis = connect('general', 'pmx-operators');
      // Both fail their commands until connected (no offline queue): be connected before listening.
      const connected = await Promise.all([whenReady(rateLimitRedis, 3_000), whenReady(producer, 3_000)]);
      if (!connected.every(Boolean))
        log.warn('Redis is not connected yet: serving anyway (rate limits open, writes answer 503 until it is)');
      const app = await buildApp({
        log,
        version: VERSION,
        redis: rateLimitRedis,
        rateLimit: { ...config.rateLimit, nameSpace: config.queuePrefix },
        metrics,
        adminToken: admin.token,
        metricsToken: config.metricsToken,
        dashboardQueues: directory,
        nodes: () =>
          nodesOverview({
            db: db.db,
            redis: operatorsRedis,
            queuePrefix: config.queuePrefix,
            beatIntervalMs: config.heartbeatIntervalMs,
            queueDepths: () => directory.depths(),
          }),
        readiness: readiness!,
        routes: features.flatMap((f) => f.routes ?? []),
        trustProxy: config.http.trustProxy,
        requestTimeoutMs: config.http.requestTimeoutMs,
        maxConnectionsPerClient: config.http.maxConnectionsPerClient,
        audit: createAuditLog(db.db),
        operators: createOperatorAccess(db.db, admin.token, {
          idleMs: config.operatorSessionIdleMin * 60_000,
          maxMs: config.operatorSessionMaxHours * 3_600_000,
        }),
      });
      cleanups.push(['http', () => app.close()]);
      daemon.url = await app.listen({ host: config.host, port: config.port }).catch((error: unknown) => {
        throw namePortSetting(error, 'PORT', config.port);
      });
      daemon.app = app;
    }
    log.info(startSummary(config, daemon.url), `daemon started: ${config.roles.join(', ')}`);
    if (config.metricsPort !== undefined) {
      const metricsApp = await buildMetricsApp({ metrics, token: config.metricsToken, log });
      cleanups.push(['metrics http', () => metricsApp.close()]);
      daemon.metricsUrl = await metricsApp.listen({ host: config.host, port: config.metricsPort });
      log.info({ metrics: `${daemon.metricsUrl}/metrics` }, 'metrics listening');
    }
    return daemon;
  } catch (error) {
    await stop();
    throw error;
  }
}
