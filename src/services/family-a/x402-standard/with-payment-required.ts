/**
 * Every 402 of a Family A trade carries the standard offer in PAYMENT-REQUIRED beside its
 * documented body: the offer of the quote it issued, or, for a refusal that issued none (a failed
 * payment), the offer of a fresh quote for the same request, with the refusal as its `error`.
 */
import { isDomainError } from '../../../domain/errors.js';
import type { FamilyADeps } from '../family-a.deps.js';
import { PAYMENT_REQUIRED_HEADER, paymentRequiredHeaders } from './payment-required.js';
import { offerOfFreshQuote, QuoteIssued } from './quote-issued.js';

export async function withPaymentRequired<T>(
  deps: FamilyADeps,
  resourceUrl: string,
  step1: () => Promise<never>,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isDomainError(error) || error.kind !== 'payment_required' || error.headers[PAYMENT_REQUIRED_HEADER]) throw error;
    const offer = error instanceof QuoteIssued ? error.offer : await offerOfFreshQuote(step1);
    if (!offer) throw error;
    const reason = error.code === 'PAYMENT_REQUIRED' ? undefined : error.message;
    throw error.withHeaders(await paymentRequiredHeaders(deps, offer, resourceUrl, reason));
  }
}
