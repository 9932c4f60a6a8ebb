/**
 * Family A payment status: GET /v2/payments/{txHash} answers what an honoured payment led to
 * (see services/family-a/payment-status.service.ts). The "already processed" refusal of a
 * resubmitted step 2 points here.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ok } from '../../envelopes.js';
import type { FamilyADeps } from '../../../services/family-a/family-a.deps.js';
import { paymentStatus } from '../../../services/family-a/payment-status.service.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

const PaymentStatus = Type.Object({
  txHash: Type.String({ description: 'the payment (inbound transfer) signature' }),
  kind: Type.Union([Type.Literal('buy'), Type.Literal('sell'), Type.Literal('claim'), Type.Literal('create')]),
  slug: Type.String(),
  wallet: Type.String({ description: 'the paying wallet' }),
  side: Nullable(Type.String({ description: 'YES or NO; null for a creation' })),
  paidAmount: Type.Number({ description: 'buy/create: USDC paid; sell/claim: outcome tokens transferred' }),
  deliverAmount: Type.Number({ description: 'buy: tokens delivered; sell/claim: USDC paid out; create: 0' }),
  status: Type.Union([Type.Literal('pending'), Type.Literal('sent'), Type.Literal('confirmed'), Type.Literal('failed')], { description: 'of the platform transaction the payment led to' }),
  platformSignatures: Type.Array(Type.String(), { description: 'signatures of the platform transactions (delivery, payout or market setup); empty until built' }),
  error: Nullable(Type.String({ description: 'why the platform transaction failed, when status is failed' })),
  recordedAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export function paymentRoutes(deps: FamilyADeps) {
  return async function (app: FastifyInstance): Promise<void> {
    app.get('/v2/payments/:txHash', {
      schema: {
        tags: ['A'], summary: 'What an honoured payment (buy, sell, claim or creation) led to: status and platform transaction signatures',
        params: Type.Object({ txHash: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: Type.Object({ success: Type.Literal(true), data: PaymentStatus }) },
      },
    }, async (request) => {
      const { txHash } = request.params as { txHash: string };
      return ok(await paymentStatus(deps, txHash));
    });
  };
}
