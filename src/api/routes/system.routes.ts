/** Liveness and readiness. /health says the process serves; /ready says its dependencies do. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { ReadinessProbe } from '../../services/readiness.service.js';

const Check = Type.Object({
  ok: Type.Boolean(),
  role: Type.Optional(Type.String({ description: '`process`, or the role that needs the check (api, ledger, matcher…)' })),
  detail: Type.Optional(Type.String({ description: 'What was seen, or why the check fails' })),
  latencyMs: Type.Optional(Type.Number()),
});

export async function systemRoutes(app: FastifyInstance, opts: { readiness: ReadinessProbe; version: string }): Promise<void> {
  const startedAt = new Date().toISOString();
  // process.uptime() in ms on performance.now()'s clock: the same monotonic clock, read about twice
  // as fast here (every liveness probe pays it).
  const uptimeOffsetMs = process.uptime() * 1000 - performance.now();
  app.get(
    '/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness: the process is up and serving HTTP',
        response: {
          200: Type.Object({ status: Type.Literal('ok'), version: Type.String(), startedAt: Type.String(), uptimeSeconds: Type.Number() }),
        },
      },
    },
    // Synchronous: the answer is sent in the request's own turn, with no promise to wait on.
    () => ({
      status: 'ok' as const,
      version: opts.version,
      startedAt,
      uptimeSeconds: Math.round((performance.now() + uptimeOffsetMs) / 1000),
    }),
  );

  app.get(
    '/ready',
    {
      schema: {
        tags: ['system'],
        summary: 'Readiness: database, Redis, queue workers (heartbeat), chain and matcher coverage (503 names the failing check)',
        response: {
          200: Type.Object({ ready: Type.Boolean(), checks: Type.Record(Type.String(), Check) }),
          503: Type.Object({ ready: Type.Boolean(), checks: Type.Record(Type.String(), Check) }),
        },
      },
    },
    async (_request, reply) => {
      const checks = await opts.readiness();
      const ready = Object.values(checks).every((c) => c.ok);
      return reply.status(ready ? 200 : 503).send({ ready, checks });
    },
  );
}
