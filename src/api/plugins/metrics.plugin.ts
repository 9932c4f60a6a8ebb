/**
 * Prometheus metrics at /metrics: HTTP latency by route and status, plus whatever the daemon's
 * registry carries (queue depths, job outcomes; see src/infra/metrics.ts).
 */
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.js';
import type { DaemonMetrics } from '../../infra/metrics.js';

export async function registerMetrics(app: FastifyInstance, metrics: DaemonMetrics): Promise<void> {
  app.addHook('onResponse', async (request, reply) => {
    metrics.httpDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  app.get('/metrics', { schema: { tags: ['system'], summary: 'Prometheus metrics' } }, async (_request, reply) => {
    let body: string;
    try {
      body = await metrics.registry.metrics();
    } catch (error) {
      // Queue depths are read from Redis: while it is away the scrape fails, which is unavailability, not a bug.
      throw new DomainError('unavailable', 'METRICS_UNAVAILABLE', `Metrics could not be collected: ${(error as Error).message}`);
    }
    reply.header('content-type', metrics.registry.contentType);
    return body;
  });
}
