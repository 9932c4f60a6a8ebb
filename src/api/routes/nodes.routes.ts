/**
 * The deployment's nodes, matchers and queues: GET /v2/admin/nodes (JSON) and /admin/nodes (the
 * console's page of the same). Both behind the admin token.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { NodesOverview } from '../../services/nodes-overview.service.js';
import { ok } from '../envelopes.js';
import { nodesPage } from '../pages/nodes-page.js';
import { isAdminRequest, requireAdmin } from '../plugins/admin-auth.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const InstanceId = Type.String({ description: "the process's instance id, `host:port:roles:pid:random`" });

const Market = Type.Object({
  marketId: Type.String({ format: 'uuid' }),
  slug: Type.String(),
  status: Type.String(),
  epoch: Type.String({ pattern: '^[0-9]+$', description: 'the fencing epoch (clob_markets.matcher_epoch)' }),
  epochNode: Nullable(Type.String({ description: 'the node that took the current epoch' })),
  leaseHolder: Nullable(Type.String({ description: 'the node holding the Redis lease now' })),
  leaseExpiresInMs: Nullable(Type.Integer({ description: 'until the lease expires unless its holder renews it' })),
  unowned: Type.Boolean({ description: 'no lease, or its holder stopped beating: orders wait for a takeover' }),
});

const Node = Type.Object({
  nodeId: InstanceId,
  roles: Type.Array(Type.String()),
  hostname: Type.String(),
  pid: Type.Integer(),
  version: Type.String(),
  startedAt: Type.String({ format: 'date-time' }),
  lastBeatAt: Type.String({ format: 'date-time' }),
  secondsSinceBeat: Type.Integer({ minimum: 0 }),
  gone: Type.Boolean({ description: 'no beat for longer than goneAfterMs' }),
  beats: Type.String({ pattern: '^[0-9]+$' }),
  pipelineBeatAt: Nullable(Type.String({ format: 'date-time', description: 'when a worker of this node last ran the heartbeat job' })),
  loopLagP99Ms: Nullable(Type.Number({ description: 'event-loop delay over the last beat interval, p99' })),
  loopLagMeanMs: Nullable(Type.Number()),
  markets: Type.Array(Market, { description: 'markets whose lease this node holds' }),
});

const Queue = Type.Object({
  queue: Type.String(),
  node: Nullable(Type.String({ description: 'the matcher node of a `matcher-…` queue' })),
  waiting: Type.Integer(),
  active: Type.Integer(),
  delayed: Type.Integer(),
  failed: Type.Integer(),
  completed: Type.Integer(),
});

const Overview = Type.Object({
  generatedAt: Type.String({ format: 'date-time' }),
  unavailable: Type.Array(Type.Object({ part: Type.Union([Type.Literal('queues'), Type.Literal('leases')]), reason: Type.String() }), {
    description: 'parts that could not be read this time (Redis slow or away); the rest is still answered',
  }),
  beatIntervalMs: Type.Integer(),
  goneAfterMs: Type.Integer(),
  nodes: Type.Array(Node, { description: 'live nodes first, then gone ones (forgotten after a day)' }),
  markets: Type.Array(Market, { description: 'every orderbook market that needs a matcher' }),
  queues: Type.Array(Queue, { description: "the catalog's queues and the matchers' (`matcher-<hash>`)" }),
});

const Unauthorized = Type.Object({
  success: Type.Literal(false),
  error: Type.Object({ code: Type.Literal('UNAUTHORIZED'), message: Type.String() }),
});

export function nodesRoutes(overview: () => Promise<NodesOverview>) {
  return async function (root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/v2/admin/nodes',
      {
        onRequest: requireAdmin(),
        schema: {
          tags: ['admin'],
          summary: 'Every daemon node (beat, event-loop delay), the markets each matcher owns, and every queue’s depth',
          response: { 200: Type.Object({ success: Type.Literal(true), data: Overview }), 401: Unauthorized },
        },
      },
      async () => ok(await overview()),
    );
    app.get('/admin/nodes', { schema: { hide: true } }, async (request, reply) => {
      if (!isAdminRequest(request)) return reply.redirect('/admin/login?next=%2Fadmin%2Fnodes', 302);
      return reply.type('text/html').send(nodesPage(await overview()));
    });
  };
}
