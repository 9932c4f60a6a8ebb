/**
 * The operators' audit log: GET /v2/admin/audit (JSON, filters and a cursor) and /admin/audit (the
 * console's page of the same, newest first). Both behind the admin token.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import type { AuditLog } from '../../services/operator-audit.service.js';
import { ok } from '../envelopes.js';
import { esc, page, table } from '../pages/html.js';
import { isAdminRequest, requireAdmin } from '../plugins/admin-auth.js';

const AuditItem = Type.Object({
  id: Type.String(),
  at: Type.String({ format: 'date-time' }),
  action: Type.String({ description: '`<METHOD> <route>`, e.g. `POST /v2/admin/clob/markets/:id/pause`' }),
  target: Type.String({ description: "the route's parameters, e.g. `id=3`" }),
  params: Type.String({ description: 'the request body as JSON (cut at 2,000 characters)' }),
  caller: Type.String({ description: "the credential's fingerprint and kind, e.g. `admin-token:1a2b3c4d5e6f via bearer`" }),
  address: Type.String({ description: 'the client address (behind TRUST_PROXY, the forwarded one)' }),
  result: Type.String({ description: '`ok`, `error <status>`, or `pending` (no answer yet: in flight, or the process stopped)' }),
  status: Type.Union([Type.Integer(), Type.Null()]),
});

const Query = Type.Object({
  action: Type.Optional(Type.String({ maxLength: 200 })),
  target: Type.Optional(Type.String({ maxLength: 200, description: 'substring of the target' })),
  since: Type.Optional(Type.String({ format: 'date-time' })),
  until: Type.Optional(Type.String({ format: 'date-time' })),
  cursor: Type.Optional(Type.String({ maxLength: 400, description: '`nextCursor` of the previous page' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
});

function auditPage(items: Awaited<ReturnType<AuditLog['list']>>['items'], query: Static<typeof Query>): string {
  const rows = items.map((r) => [r.at, r.action, r.target, r.params, r.result, r.caller, r.address]);
  const filter = `<form method="get" action="/admin/audit">action <input name="action" value="${esc(query.action)}" size="40">
target <input name="target" value="${esc(query.target)}"> <button>Filter</button></form>`;
  return page(
    'Audit log',
    `${filter}${table(['at', 'action', 'target', 'parameters', 'result', 'caller', 'address'], rows, 'No operator action yet.')}`,
  );
}

export function auditRoutes(audit: AuditLog) {
  return async function (root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/v2/admin/audit',
      {
        onRequest: requireAdmin(),
        schema: {
          tags: ['admin'],
          summary: 'The operators’ audit log, newest first: every state-changing admin request (API or console)',
          querystring: Query,
          response: {
            200: Type.Object({
              success: Type.Literal(true),
              data: Type.Object({ items: Type.Array(AuditItem), nextCursor: Type.Union([Type.String(), Type.Null()]) }),
            }),
          },
        },
      },
      async ({ query }) => ok(await audit.list({ ...query, limit: query.limit ?? 50 })),
    );
    app.get('/admin/audit', { schema: { hide: true, querystring: Query } }, async (request, reply) => {
      if (!isAdminRequest(request)) return reply.redirect('/admin/login?next=%2Fadmin%2Faudit', 302);
      const query = request.query as Static<typeof Query>;
      const { items } = await audit.list({ action: query.action || undefined, target: query.target || undefined, limit: 200 });
      return reply.type('text/html').send(auditPage(items, query));
    });
  };
}
