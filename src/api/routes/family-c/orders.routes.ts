/**
 * Family C orders: place a signed order, read the owner's orders, cancel one (signed
 * `PMX Cancel:<orderId>`) or all (signed `PMX Cancel All:<marketId|*>:<unix seconds>`).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { FamilyCContext } from '../../../services/family-c/context.js';
import type { MatcherPort } from '../../../services/family-c/matcher/matcher.port.js';
import { cancelAll, cancelOrder, getOrder, listOwnerOrders, placeOrder } from '../../../services/family-c/orders/orders.service.js';
import { MarketLookup } from '../../../services/family-c/orders/market-lookup.js';
import { countedPlacement } from '../../../services/family-c/orders/order-results.js';
import { PlaceBody, Placement, Signature } from './order-schemas.js';
import { Cursor, errorResponses, Limit, MarketRef, Pubkey } from './schemas.js';

const Order = Type.Object({
  id: Type.String(),
  marketId: Type.String(),
  ownerPubkey: Type.String(),
  side: Type.String(),
  outcome: Type.String(),
  priceBps: Type.Integer(),
  originalQuantity: Type.String(),
  remainingQuantity: Type.String(),
  filledQuantity: Type.String(),
  committedAmount: Type.String(),
  status: Type.String({ description: 'open, partially_filled, settling, filled or cancelled' }),
  orderType: Type.String(),
  timeInForce: Type.String(),
  postOnly: Type.Boolean(),
  nonce: Type.String(),
  expiry: Type.Integer(),
  cancelReason: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export function clobOrderRoutes(ctx: FamilyCContext, matcher: MatcherPort) {
  const markets = new MarketLookup(ctx);
  return async function (root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/v2/clob/orders',
      {
        schema: {
          tags: ['C'],
          summary: 'Place a signed order: the wallet signs the UTF-8 text "PMX Order:\\n" + lowercase hex of the 92-byte order message',
          body: PlaceBody,
          response: { 200: Placement, ...errorResponses },
        },
      },
      async ({ body }) => countedPlacement(ctx.metrics, () => placeOrder(markets, matcher, body)),
    );

    app.get(
      '/v2/clob/orders',
      {
        schema: {
          tags: ['C'],
          summary: "The owner's orders, newest first",
          querystring: Type.Object({
            pubkey: Pubkey,
            marketId: Type.Optional(MarketRef),
            status: Type.Optional(Type.Union(['open', 'partially_filled', 'settling', 'filled', 'cancelled'].map((s) => Type.Literal(s)))),
            limit: Limit,
            cursor: Type.Optional(Cursor),
          }),
          response: {
            200: Type.Object({ orders: Type.Array(Order), nextCursor: Type.Union([Type.String(), Type.Null()]) }),
            ...errorResponses,
          },
        },
      },
      async ({ query }) => listOwnerOrders(ctx, query as Parameters<typeof listOwnerOrders>[1]),
    );

    app.get(
      '/v2/clob/orders/:id',
      {
        schema: {
          tags: ['C'],
          summary: 'One order',
          params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
          response: { 200: Type.Object({ order: Order }), ...errorResponses },
        },
      },
      async ({ params }) => ({ order: await getOrder(ctx, params.id) }),
    );

    app.post(
      '/v2/clob/orders/cancel-all',
      {
        schema: {
          tags: ['C'],
          summary:
            'Cancel every resting order of the owner in one market or all (`*`); signed "PMX Cancel All:<marketId|*>:<unix seconds>", fresh within 60 s',
          body: Type.Object({
            pubkey: Pubkey,
            marketId: Type.String({ minLength: 1, maxLength: 80 }),
            timestamp: Type.Integer(),
            signature: Signature,
          }),
          response: { 200: Type.Object({ success: Type.Literal(true), cancelled: Type.Array(Type.String()) }), ...errorResponses },
        },
      },
      async ({ body }) => cancelAll(ctx, matcher, body),
    );

    app.post(
      '/v2/clob/orders/:id/cancel',
      {
        schema: {
          tags: ['C'],
          summary: 'Cancel one order; signed "PMX Cancel:<orderId>" by its owner (403 INVALID_SIGNATURE otherwise)',
          params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
          body: Type.Object({ pubkey: Pubkey, signature: Signature }),
          response: {
            200: Type.Object({ success: Type.Literal(true), orderId: Type.String(), status: Type.String(), cancelled: Type.Boolean() }),
            ...errorResponses,
          },
        },
      },
      async ({ params, body }) => cancelOrder(ctx, matcher, params.id, body),
    );
  };
}
