/**
 * /metrics on a port of its own (METRICS_PORT), for processes that have no HTTP facade (worker,
 * indexer, matcher and ledger roles) and so that an API node's metrics can stay off its public
 * port. The same endpoint, token and error envelope as on the facade; nothing else is served.
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { DaemonMetrics } from '../infra/metrics.js';
import { installErrorHandlers, notFoundHandler } from './error-handler.js';
import { registerMetrics } from './plugins/metrics.plugin.js';

export interface MetricsServerOptions {
  metrics: DaemonMetrics;
  token?: string;
  log: Logger;
}

/** Builds the metrics-only app (no listen), like buildApp. */
export async function buildMetricsApp(options: MetricsServerOptions): Promise<FastifyInstance> {
  const app = Fastify({ loggerInstance: options.log as FastifyBaseLogger, disableRequestLogging: true, keepAliveTimeout: 5_000 });
  installErrorHandlers(app);
  app.setNotFoundHandler(notFoundHandler);
  await registerMetrics(app, options.metrics, options.token);
  return app;
}
