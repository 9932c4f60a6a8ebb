/**
 * Prometheus metrics at /metrics: HTTP latency by route and status, plus whatever the daemon's
 * registry carries (queue depths, job outcomes, the orderbook; see src/infra/metrics.ts). With a
 * token configured (METRICS_TOKEN) a scrape must send `Authorization: Bearer <token>`, compared in
 * constant time; without one the endpoint is open, as before (bind it to a private network).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { DomainError } from '../../domain/errors.js';
import type { DaemonMetrics } from '../../infra/metrics.js';
import { constantTimeEqual } from './admin-auth.js';

/** Paths outside the families answer in Family A's envelope (src/api/families.ts). */
const ErrorBody = Type.Object(
  { success: Type.Literal(false), error: Type.Object({ code: Type.String(), message: Type.String() }) },
  { additionalProperties: true },
);

function requireMetricsToken(token: string) {
  return async (request: FastifyRequest): Promise<void> => {
    const authorization = request.headers.authorization ?? '';
    if (authorization.startsWith('Bearer ') && constantTimeEqual(authorization.slice(7).trim(), token)) return;
    throw new DomainError(
      'unauthorized',
      'UNAUTHORIZED',
      'Metrics token required: send Authorization: Bearer <METRICS_TOKEN>',
      {},
      { 'www-authenticate': 'Bearer realm="metrics"' },
    );
  };
}

/** Records one answered request's latency by method, route and status. */
export function latencyObserver(metrics: DaemonMetrics): (request: FastifyRequest, reply: FastifyReply, elapsedMs?: number) => void {
  return (request, reply, elapsedMs = reply.elapsedTime) =>
    metrics.httpDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      elapsedMs / 1000,
    );
}

/**
 * `observeRequests: false`: the caller observes each request's latency itself (buildApp does it in
 * the request log's hook, latencyObserver: one onResponse hook per request instead of two).
 */
export async function registerMetrics(
  app: FastifyInstance,
  metrics: DaemonMetrics,
  token?: string,
  options: { observeRequests?: boolean } = {},
): Promise<void> {
  if (options.observeRequests !== false) {
    const observe = latencyObserver(metrics);
    // Synchronous: every request pays this hook, so no promise per request.
    app.addHook('onResponse', (request, reply, done) => {
      observe(request, reply);
      done();
    });
  }
  app.get(
    '/metrics',
    {
      schema: {
        tags: ['system'],
        summary: 'Prometheus metrics (text exposition format); behind a bearer token when METRICS_TOKEN is set',
        ...(token ? { security: [{ metricsToken: [] }] } : {}),
        response: {
          200: Type.String({ description: 'Prometheus text exposition format 0.0.4' }),
          401: ErrorBody,
          503: ErrorBody,
        },
      },
      ...(token ? { onRequest: requireMetricsToken(token) } : {}),
    },
    async (_request, reply) => {
      let body: string;
      try {
        body = await metrics.registry.metrics();
      } catch (error) {
        throw new DomainError('unavailable', 'METRICS_UNAVAILABLE', `Metrics could not be collected: ${(error as Error).message}`);
      }
      reply.header('content-type', metrics.registry.contentType);
      return body;
    },
  );
}
