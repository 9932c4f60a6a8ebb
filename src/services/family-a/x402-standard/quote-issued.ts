/**
 * A 402 that issued a quote, carrying the quote's standard offer beside the documented body, so
 * that the route can add PAYMENT-REQUIRED (it knows the resource URL; the service does not).
 */
import { DomainError } from '../../../domain/errors.js';
import type { StandardOffer } from './payment-required.js';

export class QuoteIssued extends DomainError {
  constructor(
    code: string,
    message: string,
    extra: Record<string, unknown>,
    readonly offer: StandardOffer,
  ) {
    super('payment_required', code, message, extra);
  }
}

/** The offer of the quote a step 1 issues (it always answers 402), or undefined when it refused otherwise. */
export async function offerOfFreshQuote(step1: () => Promise<never>): Promise<StandardOffer | undefined> {
  try {
    await step1();
  } catch (error) {
    if (error instanceof QuoteIssued) return error.offer;
  }
  return undefined;
}
