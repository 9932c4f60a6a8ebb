/**
 * Operator endpoints of the orderbook (Authorization: Bearer <admin token>): create an orderbook
 * market (on chain + catalog row), pause, resume and resolve it. Idempotent: repeating a status
 * change answers the current state; what the state forbids is 409.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ClobMarketStatus } from '@pmx/programs';
import { requireAdmin } from '../../plugins/admin-auth.js';
import type { FamilyCContext } from '../../../services/family-c/context.js';
import { changeClobMarketStatus, createClobMarket } from '../../../services/family-c/market-admin.service.js';
import { presentMarket } from '../../../services/family-c/market.presenter.js';
import { keeperStatus, redriveFailedFill } from '../../../services/family-c/settlement/keeper-admin.service.js';
import type { BookTops } from '../../../services/family-c/book-tops.js';
import { Fill } from './fills.routes.js';
import { errorResponses, MarketParams, MarketView } from './schemas.js';

export interface ClobAdminOptions {
  adminToken: string;
  /** How long creation waits for the market account to land before answering 202 `creating`. */
  createWaitMs: number;
  /** Called after a status change so the matcher can react (e.g. cancel resting orders on resolve). */
  onStatusChanged?(marketId: string, status: ClobMarketStatus): Promise<void>;
  /** A failed fill was re-driven: plan its market's settlement. */
  onRedrive?(marketId: string): Promise<void>;
}

const Ticker = Type.String({ minLength: 1, maxLength: 10 });

const KeeperStatus = Type.Object({
  fillsByStatus: Type.Record(Type.String(), Type.Integer(), {
    description: 'number of fills per status (matched, settling, settled, retrying, failed…)',
  }),
  oldestUnsettledAgeSeconds: Type.Union([Type.Integer(), Type.Null()], {
    description: 'age of the oldest fill not settled yet; null when every fill settled',
  }),
  failedFills: Type.Array(Fill, { description: 'up to 50 failed fills, the last updated first, with their failureReason' }),
});

export function clobAdminRoutes(ctx: FamilyCContext, tops: BookTops, opts: ClobAdminOptions) {
  return async function (root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    app.addHook('onRequest', requireAdmin());

    app.post(
      '/v2/admin/clob/markets',
      {
        config: { role: 'admin' },
        schema: {
          tags: ['admin'],
          summary: 'Create an orderbook market (exchange program market, YES/NO mints, vault); 202 while its account is still landing',
          body: Type.Object({
            title: Type.String({ minLength: 3, maxLength: 200 }),
            description: Type.String({ maxLength: 2000 }),
            resolutionRules: Type.String({ maxLength: 4000 }),
            category: Type.String({ minLength: 1, maxLength: 64 }),
            endDate: Type.String({ minLength: 10, maxLength: 40, description: 'ISO 8601, in the future' }),
            imageUrl: Type.Optional(Type.String({ maxLength: 1000, description: 'http(s) URL' })),
            yesTicker: Ticker,
            noTicker: Ticker,
            slug: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
            minOrderSize: Type.Optional(
              Type.String({
                pattern: '^[0-9]{1,20}$',
                description: 'Smallest order quantity in outcome-token raw units (default 1000000, one token); orders below it are refused',
              }),
            ),
          }),
          response: { 200: MarketView, 202: MarketView, ...errorResponses },
        },
      },
      async (request, reply) => {
        const row = await createClobMarket(ctx, request.body, opts.createWaitMs);
        if (row.status === 'creating') reply.status(202);
        return presentMarket(row, await tops.top(row.id));
      },
    );

    for (const action of ['pause', 'resume'] as const) {
      app.post(
        `/v2/admin/clob/markets/:id/${action}`,
        {
          config: { role: 'operator' },
          schema: {
            tags: ['admin'],
            summary: `${action === 'pause' ? 'Pause' : 'Resume'} an orderbook market (idempotent)`,
            params: MarketParams,
            response: { 200: MarketView, ...errorResponses },
          },
        },
        async ({ params }) => {
          const { market, change } = await changeClobMarketStatus(ctx, params.id, action);
          if (change) await opts.onStatusChanged?.(market.id, change.status);
          return presentMarket(market, await tops.top(market.id));
        },
      );
    }

    app.post(
      '/v2/admin/clob/markets/:id/resolve',
      {
        config: { role: 'admin' },
        schema: {
          tags: ['admin'],
          summary: 'Resolve an orderbook market (idempotent for the same outcome; 409 for the other)',
          params: MarketParams,
          body: Type.Object({ outcome: Type.Union([Type.Literal('yes'), Type.Literal('no')]) }),
          response: { 200: MarketView, ...errorResponses },
        },
      },
      async ({ params, body }) => {
        const { market, change } = await changeClobMarketStatus(ctx, params.id, 'resolve', body.outcome);
        if (change) await opts.onStatusChanged?.(market.id, change.status);
        return presentMarket(market, await tops.top(market.id));
      },
    );

    app.get(
      '/v2/admin/clob/keeper',
      {
        schema: {
          tags: ['admin'],
          summary: "The settlement keeper: fills per status, the oldest unsettled fill's age, failed fills with their reasons",
          response: { 200: KeeperStatus, ...errorResponses },
        },
      },
      async () => keeperStatus(ctx),
    );

    app.post(
      '/v2/admin/clob/fills/:id/retry',
      {
        config: { role: 'operator' },
        schema: {
          tags: ['admin'],
          summary: 'Re-drive a failed fill (back to matched; batched again; its receipt still prevents a double settlement)',
          params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
          response: { 200: Type.Object({ id: Type.String(), status: Type.Literal('matched') }), ...errorResponses },
        },
      },
      async ({ params }) => {
        const { marketId } = await redriveFailedFill(ctx, params.id);
        await opts.onRedrive?.(marketId);
        return { id: params.id.toLowerCase(), status: 'matched' as const };
      },
    );
  };
}
