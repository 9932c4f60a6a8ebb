/**
 * Family C's market makers' order endpoints (issue 30): cancel by ids (signed
 * `PMX Cancel Orders:<ids>:<unix seconds>`), replace (the old order's `PMX Cancel:<id>` and a
 * new signed order, in one matcher operation) and batch placement (up to 20 signed orders, one
 * matcher operation per market, counted as that many writes by the rate limit) and the
 * dead-man's switch (signed `PMX Heartbeat:<timeoutSec>:<unix seconds>`). Each proof is verified by the same strict Ed25519
 * verifier as the other cancels; no address in a body authorises anything by itself.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { FamilyCContext } from '../../../services/family-c/context.js';
import type { MatcherPort } from '../../../services/family-c/matcher/matcher.port.js';
import { cancelOrdersByIds } from '../../../services/family-c/orders/cancel-by-ids.service.js';
import { MarketLookup } from '../../../services/family-c/orders/market-lookup.js';
import { countedPlacement } from '../../../services/family-c/orders/order-results.js';
import { replaceOrder } from '../../../services/family-c/orders/replace-order.service.js';
import { MAX_BATCH_ORDERS, placeBatch } from '../../../services/family-c/orders/batch-placement.service.js';
import { heartbeat, HEARTBEAT_MAX_SEC, HEARTBEAT_MIN_SEC } from '../../../services/family-c/orders/heartbeat.service.js';
import { placeFields, Placement, Signature } from './order-schemas.js';
import { ErrorC, errorResponses, Pubkey } from './schemas.js';

const OrderId = Type.String({
  pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
  description: 'an order id exactly as the API returned it (lowercase UUID)',
});

export function clobMakerOrderRoutes(ctx: FamilyCContext, matcher: MatcherPort) {
  const markets = new MarketLookup(ctx);
  return async function (root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/v2/clob/orders/cancel',
      {
        schema: {
          tags: ['C'],
          summary:
            'Cancel up to 100 orders of one owner; signed "PMX Cancel Orders:<ids joined by \\",\\">:<unix seconds>", fresh within 60 s, usable once',
          body: Type.Object({
            pubkey: Pubkey,
            orderIds: Type.Array(OrderId, { minItems: 1, maxItems: 100, description: 'distinct, in the order signed' }),
            timestamp: Type.Integer(),
            signature: Signature,
          }),
          response: {
            200: Type.Object({
              cancelled: Type.Array(Type.String()),
              notCancelled: Type.Array(
                Type.Object({
                  orderId: Type.String(),
                  reason: Type.String({ description: 'not_found, not_owner, not_resting (filled or cancelled before) or proof_used' }),
                }),
              ),
            }),
            ...errorResponses,
          },
        },
      },
      async ({ body }) => cancelOrdersByIds(ctx, matcher, body),
    );

    app.post(
      '/v2/clob/orders/:id/replace',
      {
        schema: {
          tags: ['C'],
          summary:
            'Cancel a resting order and place a new one of the same owner and market in one matcher operation; cancelSignature signs "PMX Cancel:<id>"',
          params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
          body: Type.Object({ cancelSignature: Signature, ...placeFields }),
          response: {
            200: Type.Object({ cancelledOrderId: Type.String(), placement: Placement }),
            ...errorResponses,
          },
        },
      },
      async ({ params, body }) => countedPlacement(ctx.metrics, () => replaceOrder(ctx, markets, matcher, params.id, body)),
    );

    app.post(
      '/v2/clob/orders/batch',
      {
        schema: {
          tags: ['C'],
          summary: `Place up to ${MAX_BATCH_ORDERS} signed orders (any markets, any owners); each answered in request order with its placement or its error`,
          body: Type.Object({ orders: Type.Array(Type.Object(placeFields), { minItems: 1, maxItems: MAX_BATCH_ORDERS }) }),
          response: {
            200: Type.Object({
              results: Type.Array(Type.Union([Placement, ErrorC]), {
                description: 'in request order: a placement as POST /v2/clob/orders answers it, or its refusal in the error envelope',
              }),
            }),
            ...errorResponses,
          },
        },
      },
      async (request) => {
        // A batch of N orders is N writes: the request's own token was spent on arrival, the other N − 1 here.
        await app.spendRateTokens(request, request.body.orders.length - 1);
        const results = await placeBatch(markets, matcher, ctx.metrics, request.body.orders);
        return {
          results: results.map((r) =>
            // The Family C envelope (envelopes.ts), as the order alone would have been answered.
            'placement' in r ? r.placement : { error: r.error.code, message: r.error.message, ...r.error.extra },
          ),
        };
      },
    );

    app.post(
      '/v2/clob/heartbeat',
      {
        schema: {
          tags: ['C'],
          summary: `Arm the owner's dead-man's switch: unless a newer heartbeat comes within timeoutSec, every resting order of the owner is cancelled (heartbeat_expired); signed "PMX Heartbeat:<timeoutSec>:<unix seconds>"`,
          body: Type.Object({
            pubkey: Pubkey,
            timeoutSec: Type.Integer({
              minimum: 0,
              maximum: HEARTBEAT_MAX_SEC,
              description: `0 disarms; else ${HEARTBEAT_MIN_SEC}–${HEARTBEAT_MAX_SEC}`,
            }),
            timestamp: Type.Integer({
              description: "unix seconds, within 60 s of the server's clock and newer than the last accepted heartbeat's",
            }),
            signature: Signature,
          }),
          response: {
            200: Type.Object({
              deadline: Type.Union([Type.Integer(), Type.Null()], { description: 'unix seconds; null when disarmed' }),
            }),
            ...errorResponses,
          },
        },
      },
      async ({ body }) => heartbeat(ctx, body),
    );
  };
}
