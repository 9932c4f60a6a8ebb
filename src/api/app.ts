/**
 * buildApp(deps): the Fastify facade without listen(), so tests drive it with inject() and
 * src/main.ts decides where it listens. Every route has a schema; every error leaves in its
 * family's envelope (error-handler.ts).
 */
import type { Queue } from 'bullmq';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { DaemonMetrics } from '../infra/metrics.js';
import { installValidators } from './validators.js';
import { clientErrorHandler } from './client-errors.js';
import { installErrorHandlers, notFoundHandler } from './error-handler.js';
import { registerDashboard } from './plugins/dashboard.plugin.js';
import { registerMetrics } from './plugins/metrics.plugin.js';
import { registerOpenApi } from './plugins/openapi.plugin.js';
import { registerRateLimit } from './plugins/rate-limit.plugin.js';
import type { ReadinessProbe } from '../services/readiness.service.js';
import { systemRoutes } from './routes/system.routes.js';

export interface AppDeps {
  log: Logger;
  version: string;
  /** Connection for the shared rate-limit counters. */
  redis: Redis;
  rateLimit: { readPerMinute: number; writePerMinute: number; nameSpace: string };
  metrics: DaemonMetrics;
  adminToken: string;
  /** Queues shown in the operator dashboard. */
  dashboardQueues: Queue[];
  readiness: ReadinessProbe;
  /** The families' route plugins, built by the composition root from the services. */
  routes: FastifyPluginAsync[];
  trustProxy?: boolean;
  bodyLimit?: number;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    trustProxy: deps.trustProxy ?? false,
    bodyLimit: deps.bodyLimit ?? 256 * 1024,
    requestIdHeader: 'x-request-id',
    clientErrorHandler,
  });
  installValidators(app);
  installErrorHandlers(app);
  await registerOpenApi(app, deps.version);
  await registerRateLimit(app, { redis: deps.redis, ...deps.rateLimit });
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, notFoundHandler);
  await registerMetrics(app, deps.metrics);
  await app.register(systemRoutes, { readiness: deps.readiness, version: deps.version });
  await registerDashboard(app, deps.dashboardQueues, deps.adminToken);
  for (const routes of deps.routes) await app.register(routes);
  return app;
}
