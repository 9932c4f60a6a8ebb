/**
 * Family A payment status: GET /v2/payments/{txHash} answers what a payment led to: the trade,
 * claim or creation it paid for, and what became of each of its transfers to platform wallets
 * (refunds, credits; see services/family-a/payment-status.service.ts). The "already processed"
 * refusal of a resubmitted step 2 and every refused payment point here.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ok } from '../../envelopes.js';
import type { FamilyADeps } from '../../../services/family-a/family-a.deps.js';
import { paymentStatus } from '../../../services/family-a/payment-status.service.js';

import { Nullable, TransferOutcome } from './schemas.js';

const PaymentStatus = Type.Object({
  txHash: Type.String({ description: 'the payment (inbound transfer) signature' }),
  kind: Type.Union([Type.Literal('buy'), Type.Literal('sell'), Type.Literal('claim'), Type.Literal('create'), Type.Literal('unhonoured')], {
    description: 'what the payment paid for; unhonoured: presented but paid for nothing (see transfers: refunded, held, credited)',
  }),
  slug: Nullable(Type.String()),
  wallet: Nullable(Type.String({ description: 'the paying wallet' })),
  side: Nullable(Type.String({ description: 'YES or NO; null for a creation' })),
  paidAmount: Nullable(
    Type.Number({
      description:
        'buy/create: USDC paid; sell/claim: outcome tokens transferred (a claim counts its credited transfers too); null when unhonoured',
    }),
  ),
  deliverAmount: Nullable(
    Type.Number({ description: 'buy: tokens delivered; sell/claim: USDC paid out; create: 0; null when unhonoured' }),
  ),
  status: Nullable(
    Type.Union(
      [Type.Literal('pending'), Type.Literal('sent'), Type.Literal('confirmed'), Type.Literal('failed'), Type.Literal('awaiting_funds')],
      {
        description:
          'of the platform transaction the payment led to; awaiting_funds: a payout the platform wallets cannot cover yet (paid once funded); null when unhonoured',
      },
    ),
  ),
  platformSignatures: Type.Array(Type.String(), {
    description: 'signatures of the platform transactions (delivery, payout, market setup, or refunds when unhonoured); empty until built',
  }),
  error: Nullable(Type.String({ description: 'why the platform transaction failed or waits for funds' })),
  recordedAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  transfers: Type.Array(TransferOutcome, { description: 'every transfer of the transaction to a platform wallet and what became of it' }),
  x402State: Type.Optional(
    Type.Union(
      ['sent', 'honoured', 'refused', 'failed', 'expired', 'rejected'].map((s) => Type.Literal(s)),
      {
        description:
          'standard x402 payments only (docs/x402-standard.md): sent (in flight), honoured, refused (landed, trade refused), or failed / expired / rejected (nothing moved)',
      },
    ),
  ),
});

export function paymentRoutes(deps: FamilyADeps) {
  return async function (app: FastifyInstance): Promise<void> {
    app.get(
      '/v2/payments/:txHash',
      {
        schema: {
          tags: ['A'],
          summary:
            'What a payment led to (buy, sell, claim, creation, or nothing) and what became of each of its transfers (refunds, credits)',
          params: Type.Object({ txHash: Type.String({ minLength: 1, maxLength: 100 }) }),
          response: { 200: Type.Object({ success: Type.Literal(true), data: PaymentStatus }) },
        },
      },
      async (request) => {
        const { txHash } = request.params as { txHash: string };
        return ok(await paymentStatus(deps, txHash));
      },
    );
  };
}
