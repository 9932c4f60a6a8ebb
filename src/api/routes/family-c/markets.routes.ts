/** Family C market reads: the list (filters, keyset cursor) and one market by UUID or slug. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { FamilyCContext } from '../../../services/family-c/context.js';
import { listMarketsPage, requireClobMarket } from '../../../services/family-c/market-catalog.service.js';
import { EMPTY_TOP, presentMarket } from '../../../services/family-c/market.presenter.js';
import type { ClobBookReads } from '../../../services/family-c/book-reads.js';
import { limitDepth } from '../../../services/family-c/events/book-snapshot.js';
import { EMPTY_BOOK_HASH } from '../../../services/family-c/events/book-hash.js';
import { listTrades } from '../../../services/family-c/trades.service.js';
import { Cursor, errorResponses, Limit, MarketParams, MarketView } from './schemas.js';
import { Fill } from './fills.routes.js';

export function clobMarketRoutes(ctx: FamilyCContext, tops: ClobBookReads) {
  return async function (root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/v2/clob/markets',
      {
        schema: {
          tags: ['C'],
          summary: 'Orderbook markets, newest first (keyset pagination: pass nextCursor as cursor)',
          querystring: Type.Object({
            status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('paused'), Type.Literal('resolved')])),
            category: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
            limit: Limit,
            cursor: Type.Optional(Cursor),
          }),
          response: {
            200: Type.Object({ markets: Type.Array(MarketView), nextCursor: Type.Union([Type.String(), Type.Null()]) }),
            ...errorResponses,
          },
        },
      },
      async ({ query }) => {
        const page = await listMarketsPage(ctx, query);
        const views = await Promise.all(page.markets.map(async (m) => presentMarket(m, await tops.top(m.id))));
        return { markets: views, nextCursor: page.nextCursor };
      },
    );

    app.get(
      '/v2/clob/markets/:id',
      {
        schema: {
          tags: ['C'],
          summary: 'One orderbook market by UUID or slug, with best bid/ask and last price per outcome',
          params: MarketParams,
          response: { 200: MarketView, ...errorResponses },
        },
      },
      async ({ params }) => {
        const market = await requireClobMarket(ctx, params.id);
        return presentMarket(market, await tops.top(market.id));
      },
    );

    const Level = Type.Object({ price: Type.Integer(), size: Type.String() });
    const Side = Type.Object({ bids: Type.Array(Level), asks: Type.Array(Level) });
    const Prices = Type.Object({ yes: Type.Union([Type.Integer(), Type.Null()]), no: Type.Union([Type.Integer(), Type.Null()]) });
    app.get(
      '/v2/clob/markets/:id/orderbook',
      {
        schema: {
          tags: ['C'],
          summary: 'Aggregated levels per outcome, best first (bids high to low, asks low to high); size in raw tokens',
          params: MarketParams,
          querystring: Type.Object({ depth: Type.Integer({ minimum: 1, maximum: 10_000, default: 100, description: 'levels per side' }) }),
          response: {
            200: Type.Object({
              marketId: Type.String(),
              yes: Side,
              no: Side,
              bestBid: Prices,
              bestAsk: Prices,
              lastPrice: Prices,
              seq: Type.Union([Type.Integer(), Type.Null()]),
              hash: Type.String({
                pattern: '^[0-9a-f]{64}$',
                description: 'hex SHA-256 of every level of both outcomes, whatever depth (docs/family-c.md: canonical text)',
              }),
              timestamp: Type.Integer(),
            }),
            ...errorResponses,
          },
        },
      },
      async ({ params, query }) => {
        const market = await requireClobMarket(ctx, params.id);
        const view = await tops.view(market.id, query.depth);
        if (!view)
          return {
            marketId: market.id,
            yes: { bids: [], asks: [] },
            no: { bids: [], asks: [] },
            ...EMPTY_TOP,
            seq: null,
            hash: EMPTY_BOOK_HASH,
            timestamp: Date.now(),
          };
        return { ...limitDepth(view, query.depth), marketId: market.id, seq: view.seq ?? null };
      },
    );

    app.get(
      '/v2/clob/markets/:id/trades',
      {
        schema: {
          tags: ['C'],
          summary: "The market's fills, newest first (status matched until settled)",
          params: MarketParams,
          querystring: Type.Object({ limit: Limit, cursor: Type.Optional(Cursor) }),
          response: {
            200: Type.Object({ trades: Type.Array(Fill), nextCursor: Type.Union([Type.String(), Type.Null()]) }),
            ...errorResponses,
          },
        },
      },
      async ({ params, query }) => listTrades(ctx, params.id, query.limit, query.cursor),
    );
  };
}
