/** Family C fills and positions: what an owner traded, what settled, and the PnL of it. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { BookTops } from '../../../services/family-c/book-tops.js';
import type { FamilyCContext } from '../../../services/family-c/context.js';
import { getFill, listOwnerFills } from '../../../services/family-c/fills.service.js';
import { positionsSummary, positionsView } from '../../../services/family-c/positions.service.js';
import { Cursor, errorResponses, Limit, MarketRef, Pubkey } from './schemas.js';

const S = Type.String();
const NS = Type.Union([Type.String(), Type.Null()]);
export const Fill = Type.Object({
  id: S,
  marketId: S,
  makerOrderId: S,
  takerOrderId: S,
  makerPubkey: S,
  takerPubkey: S,
  takerSide: S,
  outcome: S,
  priceBps: Type.Integer(),
  quantity: S,
  usdcAmount: S,
  makerUsdcAmount: S,
  takerFee: S,
  makerRebate: S,
  protocolFee: S,
  fillType: S,
  status: Type.String({ description: 'matched, settling, settled, retrying, failed or failed_insufficient_balance' }),
  retryCount: Type.Integer(),
  failureReason: NS,
  batchId: NS,
  settleTx: NS,
  matchedAt: S,
  settledAt: NS,
});
const Position = Type.Object({
  id: S,
  marketId: S,
  ownerPubkey: S,
  outcome: S,
  netQuantity: S,
  avgEntryPrice: Type.Integer(),
  totalCost: S,
  totalProceeds: S,
  totalFees: S,
  realizedPnl: S,
  unrealizedPnl: NS,
  currentPrice: Type.Union([Type.Integer(), Type.Null()]),
  marketSlug: S,
  marketTitle: S,
  marketStatus: NS,
  updatedAt: S,
});

export function clobFillRoutes(ctx: FamilyCContext, tops: BookTops) {
  return async function (root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/v2/clob/fills',
      {
        schema: {
          tags: ['C'],
          summary: "The owner's fills as maker or taker, newest first",
          querystring: Type.Object({ pubkey: Pubkey, marketId: Type.Optional(MarketRef), limit: Limit, cursor: Type.Optional(Cursor) }),
          response: { 200: Type.Object({ fills: Type.Array(Fill), nextCursor: NS }), ...errorResponses },
        },
      },
      async ({ query }) => listOwnerFills(ctx, query),
    );

    app.get(
      '/v2/clob/fills/:id',
      {
        schema: {
          tags: ['C'],
          summary: 'One fill',
          params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
          response: { 200: Type.Object({ fill: Fill }), ...errorResponses },
        },
      },
      async ({ params }) => getFill(ctx, params.id),
    );

    app.get(
      '/v2/clob/positions',
      {
        schema: {
          tags: ['C'],
          summary:
            'Positions per market and outcome with PnL, from settled fills, splits, merges and redemptions (holdings or realised PnL only)',
          querystring: Type.Object({ pubkey: Pubkey, marketId: Type.Optional(MarketRef) }),
          response: { 200: Type.Object({ positions: Type.Array(Position) }), ...errorResponses },
        },
      },
      async ({ query }) => positionsView(ctx, tops, query.pubkey, query.marketId),
    );

    app.get(
      '/v2/clob/positions/summary',
      {
        schema: {
          tags: ['C'],
          summary: 'Totals of realised and unrealised PnL and fees, and per market',
          querystring: Type.Object({ pubkey: Pubkey }),
          response: {
            200: Type.Object({
              // null: no position has a price (not zero); unpricedPositions: positions left out of the sum.
              pubkey: S,
              totalRealizedPnl: S,
              totalUnrealizedPnl: NS,
              totalFees: S,
              activePositions: Type.Integer(),
              resolvedPositions: Type.Integer(),
              unpricedPositions: Type.Integer(),
              markets: Type.Array(
                Type.Object({ marketId: S, marketSlug: S, realizedPnl: S, unrealizedPnl: NS, unpricedPositions: Type.Integer() }),
              ),
            }),
            ...errorResponses,
          },
        },
      },
      async ({ query }) => positionsSummary(ctx, tops, query.pubkey),
    );
  };
}
