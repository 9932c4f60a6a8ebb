/**
 * The standard x402 v2 offer that every Family A trade 402 carries in `PAYMENT-REQUIRED` (the
 * documented body is unchanged). One `exact` requirement: pay `amount` raw units of `asset` to the
 * associated token account of `payTo`, in a transaction whose fee payer is the platform's
 * (`extra.feePayer`), built on `extra.recentBlockhash`, with a memo naming the quote it pays
 * (`extra.memo`: `pmx-quote:<quote id>`), which binds the payment to this quote and nothing else.
 *
 * The wire format (base64 of the JSON `PaymentRequired`) is the x402 Foundation's
 * (`encodePaymentRequiredHeader` of @x402/core).
 */
import { encodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import type { FamilyADeps } from '../family-a.deps.js';

export const PAYMENT_REQUIRED_HEADER = 'PAYMENT-REQUIRED';
const MEMO_PREFIX = 'pmx-quote:';

/** What a quote asks for, in the standard's terms. */
export interface StandardOffer {
  quoteId: string;
  /** Raw units the transfer must move: a buy's USDC (account fee included) or a sell's outcome tokens. */
  amountRaw: bigint;
  asset: string;
  payTo: string;
  /** Raw USDC of `amountRaw` that pays for opening the buyer's outcome-token account (0: none). */
  accountFeeRaw: bigint;
  description: string;
}

export function quoteMemo(quoteId: string): string {
  return `${MEMO_PREFIX}${quoteId}`;
}

/** The quote id a memo names, or undefined when it is not one of ours. */
export function quoteIdOfMemo(memo: unknown): string | undefined {
  if (typeof memo !== 'string' || !memo.startsWith(MEMO_PREFIX)) return undefined;
  const id = memo.slice(MEMO_PREFIX.length);
  return /^[0-9a-f-]{36}$/.test(id) ? id : undefined;
}

/** The requirement a payment is verified against (no blockhash: any valid one will do). */
export function requirementsFor(deps: FamilyADeps, offer: StandardOffer): PaymentRequirements {
  return {
    scheme: 'exact',
    network: deps.settings.x402.network as PaymentRequirements['network'],
    amount: offer.amountRaw.toString(),
    asset: offer.asset,
    payTo: offer.payTo,
    maxTimeoutSeconds: Math.floor(deps.settings.quoteTtlMs / 1000),
    extra: {
      feePayer: deps.keys.x402FeePayer().publicKey.toBase58(),
      memo: quoteMemo(offer.quoteId),
      ...(offer.accountFeeRaw > 0n ? { accountOpeningFee: offer.accountFeeRaw.toString() } : {}),
    },
  };
}

/** PAYMENT-REQUIRED for an offer: the requirement with a fresh blockhash, so a client needs no RPC call for one. */
export async function paymentRequiredHeaders(
  deps: FamilyADeps,
  offer: StandardOffer,
  resourceUrl: string,
  error?: string,
): Promise<Record<string, string>> {
  const { blockhash, lastValidBlockHeight } = await deps.chain.getLatestBlockhash();
  const requirement = requirementsFor(deps, offer);
  const required: PaymentRequired = {
    x402Version: 2,
    ...(error ? { error } : {}),
    resource: { url: resourceUrl, description: offer.description, mimeType: 'application/json' },
    accepts: [{ ...requirement, extra: { ...requirement.extra, recentBlockhash: blockhash, lastValidBlockHeight } }],
  };
  return { [PAYMENT_REQUIRED_HEADER]: encodePaymentRequiredHeader(required) };
}
