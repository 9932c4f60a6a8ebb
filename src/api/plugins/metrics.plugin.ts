/**
 * Prometheus metrics at /metrics: HTTP latency by route and status, plus whatever the daemon's
 * registry carries (queue depths, job outcomes; see src/infra/metrics.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { DaemonMetrics } from '../../infra/metrics.js';

export async function registerMetrics(app: FastifyInstance, metrics: DaemonMetrics): Promise<void> {
  app.addHook('onResponse', async (request, reply) => {
    metrics.httpDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  app.get('/metrics', { schema: { tags: ['system'], summary: 'Prometheus metrics' } }, async (_request, reply) => {
    reply.header('content-type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
