/**
 * POST /v2/markets: paid market creation (x402). Without X-PAYMENT: 402 with the creation fee,
 * marketId, slug and option wallets; with it: 201 and the market's details once live.
 * (Family B's POST /v2/markets/create and /confirm are other, static routes.)
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../../envelopes.js';
import type { FamilyADeps } from '../../../services/family-a/family-a.deps.js';
import { createStep1, createStep2 } from '../../../services/family-a/market-creation.service.js';
import { CreatePaymentRequired, ErrorA } from './schemas.js';

export function createRoutes(deps: FamilyADeps) {
  return async function (root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    app.post(
      '/v2/markets',
      {
        schema: {
          tags: ['A'],
          summary: 'Create a market paid by x402 (402 → pay the creation fee → repeat with X-PAYMENT → 201)',
          headers: Type.Object({
            'x-payment': Type.Optional(
              Type.String({
                maxLength: 4096,
                description:
                  'Step 2 only: base64 of {x402Version: 1, network, txHash (ONE transaction paying both accepts entries), amount (USDC), payer (= creator_wallet), payTo, asset (the USDC mint)}',
              }),
            ),
          }),
          body: Type.Object({
            name: Type.String({ minLength: 3, maxLength: 200 }),
            description: Type.String({ minLength: 10, maxLength: 2000 }),
            end_date: Type.String({ minLength: 10, maxLength: 40 }),
            options: Type.Optional(Type.Array(Type.String({ maxLength: 10 }), { minItems: 2, maxItems: 2 })),
            creator_wallet: Type.String({ minLength: 32, maxLength: 44 }),
            initial_liquidity: Type.Optional(Type.Number({ minimum: 0 })),
            image_urls: Type.Optional(
              Type.Object({
                market: Type.Optional(Type.String()),
                option1: Type.Optional(Type.String()),
                option2: Type.Optional(Type.String()),
              }),
            ),
            tags: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20 })),
            category: Type.Optional(Type.String({ maxLength: 64 })),
            marketId: Type.Optional(Type.String({ format: 'uuid' })),
          }),
          response: {
            201: Type.Object({ success: Type.Literal(true), data: Type.Unknown() }),
            402: CreatePaymentRequired,
            400: ErrorA,
            404: ErrorA,
            409: ErrorA,
          },
        },
      },
      async (request, reply) => {
        const header = request.headers['x-payment'];
        const body = request.body;
        if (typeof header !== 'string') return createStep1(deps, body);
        const details = await createStep2(deps, body, header);
        return reply.status(201).send(ok(details));
      },
    );
  };
}
