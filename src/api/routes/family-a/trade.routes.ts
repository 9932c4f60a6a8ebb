/**
 * Family A x402 trades and claims: POST /v2/markets/{slug}/trade/buy, /trade/sell, /claim,
 * /claim/confirm. Without a payment a trade answers 402 (payment requirements + quote, and the
 * standard x402 v2 offer in PAYMENT-REQUIRED); with X-PAYMENT (the documented flavour) or
 * PAYMENT-SIGNATURE (standard x402 v2, answered with PAYMENT-RESPONSE), 200 and the trade result. Error schemas are open (additionalProperties) so that their
 * top-level extras (payment, quote, claim, marketSlug, paymentOutcome) are kept and documented.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from 'typebox';
import { DomainError } from '../../../domain/errors.js';
import { payStandard, type StandardTrade } from '../../../services/family-a/x402-standard/settle-standard-payment.js';
import { MAX_PAYMENT_SIGNATURE_LENGTH } from '../../../services/family-a/x402-standard/standard-payload.js';
import { withPaymentRequired } from '../../../services/family-a/x402-standard/with-payment-required.js';
import { SIGNATURE_PATTERN } from '@pmx/programs';
import { ok } from '../../envelopes.js';
import { buyStep1, buyStep2 } from '../../../services/family-a/buy.service.js';
import { claimEligibility, confirmClaim } from '../../../services/family-a/claim.service.js';
import type { FamilyADeps } from '../../../services/family-a/family-a.deps.js';
import { sellStep1, sellStep2 } from '../../../services/family-a/sell.service.js';
import { BuyPaymentRequired, BuyResult, ClaimConfirmation, ClaimEligibility, ErrorA, SellPaymentRequired, SellResult } from './schemas.js';

const Success = <T extends TSchema>(data: T) => Type.Object({ success: Type.Literal(true), data });
const Errors = { 400: ErrorA, 404: ErrorA, 409: ErrorA };
const SlugParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 80 }) });
const Wallet = Type.String({ minLength: 32, maxLength: 44 });
const Side = Type.String({ minLength: 1, maxLength: 10, description: 'YES or NO, or the market ticker' });
const BUY_PAYMENT =
  "Step 2 only: base64 of the JSON payment payload {x402Version: 1, network, networkId, txHash (your USDC transfer's signature), amount (USDC, human), payer (= wallet), payTo (payment.payTo), asset (the USDC mint), quoteIssuedAt (quote.issuedAt)}";
const SELL_PAYMENT =
  "Step 2 only: base64 of the JSON payload {x402Version: 1, network, txHash (your token transfer's signature), amount (tokenAmount, human), payer (= wallet), payTo (payment.sendTo), asset (payment.tokenMint), quoteIssuedAt (quote.issuedAt)}";
const STANDARD_PAYMENT =
  'Standard x402 v2 (docs/x402-standard.md): base64 of the JSON PaymentPayload whose `payload.transaction` is the partially signed transaction built from PAYMENT-REQUIRED. Answered with PAYMENT-RESPONSE.';
const PaymentHeader = (description: string) =>
  Type.Object({
    'x-payment': Type.Optional(Type.String({ maxLength: 4096, description })),
    'payment-signature': Type.Optional(Type.String({ maxLength: MAX_PAYMENT_SIGNATURE_LENGTH, description: STANDARD_PAYMENT })),
  });

/** The URL a client asked for, as the standard's `resource.url` names it. */
function resourceUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}${request.url}`;
}

function paymentHeaders(headers: { 'x-payment'?: string; 'payment-signature'?: string }): { documented?: string; standard?: string } {
  const documented = headers['x-payment'];
  const standard = headers['payment-signature'];
  if (documented !== undefined && standard !== undefined)
    throw new DomainError(
      'invalid',
      'VALIDATION_ERROR',
      'Send either X-PAYMENT (documented flavour) or PAYMENT-SIGNATURE (standard x402 v2), not both',
    );
  return { documented, standard };
}

/**
 * One trade request in whichever flavour it came: no payment → the 402 offer (documented body and
 * PAYMENT-REQUIRED); X-PAYMENT → the documented step 2; PAYMENT-SIGNATURE → a standard payment
 * (answered with PAYMENT-RESPONSE). Every 402 carries PAYMENT-REQUIRED (with-payment-required.ts).
 */
async function trade<R>(
  deps: FamilyADeps,
  request: FastifyRequest,
  reply: FastifyReply,
  flavours: { step1(): Promise<never>; step2(header: string): Promise<R>; standard: Omit<StandardTrade, 'header'> },
) {
  const { documented, standard } = paymentHeaders(request.headers as { 'x-payment'?: string; 'payment-signature'?: string });
  return withPaymentRequired(deps, resourceUrl(request), flavours.step1, async () => {
    if (standard !== undefined) {
      const paid = await payStandard(deps, { ...flavours.standard, header: standard });
      void reply.headers(paid.headers);
      return ok(paid.data as R);
    }
    if (documented === undefined) return flavours.step1();
    return ok(await flavours.step2(documented));
  });
}

export function tradeRoutes(deps: FamilyADeps) {
  return async function (root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    app.post(
      '/v2/markets/:slug/trade/buy',
      {
        schema: {
          tags: ['A'],
          summary: 'Buy outcome tokens with an x402 USDC payment (402 → pay → repeat with X-PAYMENT)',
          params: SlugParams,
          headers: PaymentHeader(BUY_PAYMENT),
          body: Type.Object({ wallet: Wallet, amount: Type.Number({ minimum: 0.01, maximum: 1_000_000 }), side: Side }),
          response: { 200: Success(BuyResult), 402: BuyPaymentRequired, ...Errors },
        },
      },
      async (request, reply) => {
        const { slug } = request.params;
        const { body } = request;
        return trade(deps, request, reply, {
          step1: () => buyStep1(deps, slug, body),
          step2: (header) => buyStep2(deps, slug, body, header),
          standard: { kind: 'buy', slug, wallet: body.wallet, side: body.side, amount: body.amount },
        });
      },
    );

    app.post(
      '/v2/markets/:slug/trade/sell',
      {
        schema: {
          tags: ['A'],
          summary: 'Sell outcome tokens back at the target price (402 → transfer tokens → repeat with X-PAYMENT)',
          params: SlugParams,
          headers: PaymentHeader(SELL_PAYMENT),
          body: Type.Object({ wallet: Wallet, tokenAmount: Type.Number({ exclusiveMinimum: 0, maximum: 1e12 }), side: Side }),
          response: { 200: Success(SellResult), 402: SellPaymentRequired, ...Errors },
        },
      },
      async (request, reply) => {
        const { slug } = request.params;
        const { body } = request;
        return trade(deps, request, reply, {
          step1: () => sellStep1(deps, slug, body),
          step2: (header) => sellStep2(deps, slug, body, header),
          standard: { kind: 'sell', slug, wallet: body.wallet, side: body.side, amount: body.tokenAmount },
        });
      },
    );

    app.post(
      '/v2/markets/:slug/claim',
      {
        schema: {
          tags: ['A'],
          summary: 'Claim eligibility and transfer instructions (resolved markets)',
          params: SlugParams,
          body: Type.Object({ wallet: Wallet }),
          response: { 200: Success(ClaimEligibility), ...Errors },
        },
      },
      async ({ params, body }) => ok(await claimEligibility(deps, params.slug, body.wallet)),
    );

    app.post(
      '/v2/markets/:slug/claim/confirm',
      {
        schema: {
          tags: ['A'],
          summary: 'Confirm the transfer of ALL winning tokens and receive the USDC payout',
          params: SlugParams,
          body: Type.Object({
            wallet: Wallet,
            transferTxHash: Type.String({ pattern: SIGNATURE_PATTERN, description: "the token transfer's signature (base58, 64 bytes)" }),
          }),
          response: { 200: Success(ClaimConfirmation), 402: ErrorA, ...Errors },
        },
      },
      async ({ params, body }) => {
        return ok(await confirmClaim(deps, params.slug, body.wallet, body.transferTxHash));
      },
    );
  };
}
