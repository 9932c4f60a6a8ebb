/**
 * Family A operator endpoints (Authorization: Bearer <admin token>): create and resolve markets
 * without payment, create/list/revoke Family A API keys, list and re-drive failed outbound
 * transactions, and see Family A money that was not simply honoured (refunds, held payments,
 * credits, payouts waiting for funds).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../../envelopes.js';
import { requireAdmin } from '../../plugins/admin-auth.js';
import { listOutbound, retryOutbound } from '../../../services/outbound/outbound-admin.js';
import type { ApiKeyService } from '../../../services/family-a/api-keys.service.js';
import type { FamilyADeps } from '../../../services/family-a/family-a.deps.js';
import { adminCreateMarket, adminResolveMarket } from '../../../services/family-a/market-admin.service.js';
import { listTransfers, moneyOverview } from '../../../services/family-a/money-admin.service.js';
import { TransferOutcome } from './schemas.js';

const Envelope = Type.Object({ success: Type.Literal(true), data: Type.Unknown() });

export function adminRoutes(deps: FamilyADeps, apiKeys: ApiKeyService) {
  return async function (root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    app.addHook('onRequest', requireAdmin());

    app.post(
      '/v2/admin/markets',
      {
        config: { role: 'admin' },
        schema: {
          tags: ['admin'],
          summary: 'Create a Family A market (answers once it is live: mints and option wallets exist)',
          body: Type.Object({
            name: Type.String({ minLength: 3, maxLength: 200 }),
            description: Type.String({ minLength: 0, maxLength: 2000 }),
            endDate: Type.String({ minLength: 10, maxLength: 40 }),
            slug: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
            category: Type.Optional(Type.String({ maxLength: 64 })),
            tags: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20 })),
            imageUrls: Type.Optional(Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 10 })),
            targetPrice: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1 })),
            marketLimit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1e12 })),
            yesTicker: Type.Optional(
              Type.String({ minLength: 1, maxLength: 10, description: 'ticker of the YES outcome (e.g. UP); default YES' }),
            ),
            noTicker: Type.Optional(
              Type.String({ minLength: 1, maxLength: 10, description: 'ticker of the NO outcome (e.g. DOWN); default NO' }),
            ),
          }),
          response: { 200: Envelope },
        },
      },
      async (request) => ok(await adminCreateMarket(deps, request.body)),
    );

    app.post(
      '/v2/admin/markets/:slug/resolve',
      {
        config: { role: 'admin' },
        schema: {
          tags: ['admin'],
          summary: 'Resolve a Family A market',
          params: Type.Object({ slug: Type.String({ minLength: 1, maxLength: 80 }) }),
          body: Type.Object({ outcome: Type.Union([Type.Literal('YES'), Type.Literal('NO')]) }),
          response: { 200: Envelope },
        },
      },
      async ({ params, body }) => ok(await adminResolveMarket(deps, params.slug, body.outcome)),
    );

    app.get(
      '/v2/admin/outbound',
      {
        schema: {
          tags: ['admin'],
          summary:
            'Outbound platform transactions by status (failed ones need an operator; awaiting_funds: payouts a platform wallet cannot cover yet)',
          querystring: Type.Object({
            status: Type.Union(
              [
                Type.Literal('pending'),
                Type.Literal('sent'),
                Type.Literal('confirmed'),
                Type.Literal('failed'),
                Type.Literal('awaiting_funds'),
              ],
              { default: 'failed' },
            ),
          }),
          response: { 200: Envelope },
        },
      },
      async ({ query }) => ok(await listOutbound(deps.db, query.status)),
    );

    app.post(
      '/v2/admin/outbound/:id/retry',
      {
        config: { role: 'operator' },
        schema: {
          tags: ['admin'],
          summary: 'Re-drive a failed outbound transaction, or check one waiting for funds now (e.g. after funding the platform wallet)',
          params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
          response: { 200: Envelope },
        },
      },
      async ({ params: { id } }) => {
        const how = await retryOutbound(deps.db, id);
        // A fresh job id: the intent's first job may still be kept by the queue as completed or failed.
        await deps.dispatchOutbound(id, `retry-${Date.now()}`);
        return ok({ id, status: 'pending', retry: how });
      },
    );

    app.get(
      '/v2/admin/family-a/transfers',
      {
        schema: {
          tags: ['admin'],
          summary: 'Inbound transfers to platform wallets by state (open = held, credited or awaiting an operator), newest first',
          querystring: Type.Object({
            state: Type.Union(
              [
                Type.Literal('open'),
                Type.Literal('held'),
                Type.Literal('honoured'),
                Type.Literal('refunded'),
                Type.Literal('credited'),
                Type.Literal('claimed'),
                Type.Literal('manual'),
              ],
              { default: 'open' },
            ),
            limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
            offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
          }),
          response: { 200: Type.Object({ success: Type.Literal(true), data: Type.Array(TransferOutcome) }) },
        },
      },
      async ({ query }) => ok(await listTransfers(deps, query.state, query.limit, query.offset)),
    );

    app.get(
      '/v2/admin/family-a/money',
      {
        schema: {
          tags: ['admin'],
          summary: 'Family A money overview: counts by state, payouts waiting for funds, open transfers, recent refunds',
          response: { 200: Envelope },
        },
      },
      async () => ok(await moneyOverview(deps)),
    );

    app.post(
      '/v2/admin/api-keys',
      {
        config: { role: 'admin' },
        schema: {
          tags: ['admin'],
          summary: 'Create a Family A API key (shown once)',
          body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) }),
          response: { 200: Envelope },
        },
      },
      async ({ body }) => ok(await apiKeys.create(body.name)),
    );

    app.get(
      '/v2/admin/api-keys',
      { schema: { tags: ['admin'], summary: 'List Family A API keys (prefixes only)', response: { 200: Envelope } } },
      async () => ok(await apiKeys.list()),
    );

    app.delete(
      '/v2/admin/api-keys/:id',
      {
        config: { role: 'admin' },
        schema: {
          tags: ['admin'],
          summary: 'Revoke a Family A API key',
          params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
          response: { 200: Envelope },
        },
      },
      async ({ params }) => ok(await apiKeys.revoke(params.id)),
    );
  };
}
