/**
 * What a standard payment answered, stored with its row (family_a_x402_payments.answer) so that a
 * replayed PAYMENT-SIGNATURE gets the very same answer: the documented result and a successful
 * PAYMENT-RESPONSE, or the refusal (a domain error) and a failed one. The PAYMENT-RESPONSE wire
 * format is the x402 Foundation's (`encodePaymentResponseHeader` of @x402/core).
 */
import { encodePaymentResponseHeader } from '@x402/core/http';
import type { SettleResponse } from '@x402/core/types';
import { DomainError, type SerializedDomainError } from '../../../domain/errors.js';
import type { X402PaymentRow } from '../../../../db/repositories/family-a-x402.repository.js';
import type { FamilyADeps } from '../family-a.deps.js';

export const PAYMENT_RESPONSE_HEADER = 'PAYMENT-RESPONSE';

export type StoredAnswer =
  { ok: true; data: unknown; paymentResponse: string } | { ok: false; error: SerializedDomainError; paymentResponse: string };

/** A paid trade's answer: the body's `data` and its headers. */
export interface PaidAnswer {
  data: unknown;
  headers: Record<string, string>;
}

function paymentResponse(deps: FamilyADeps, row: Pick<X402PaymentRow, 'signature' | 'payer'>, errorReason?: string): string {
  const response: SettleResponse = {
    success: errorReason === undefined,
    transaction: row.signature,
    network: deps.settings.x402.network as SettleResponse['network'],
    payer: row.payer,
    ...(errorReason === undefined ? {} : { errorReason }),
  };
  return encodePaymentResponseHeader(response);
}

export function paidAnswer(deps: FamilyADeps, row: X402PaymentRow, data: unknown): StoredAnswer {
  return { ok: true, data, paymentResponse: paymentResponse(deps, row) };
}

/** A refusal of a payment the platform co-signed (it may have landed: the error says what became of its money). */
export function refusedAnswer(deps: FamilyADeps, row: X402PaymentRow, error: DomainError, errorReason: string): StoredAnswer {
  return { ok: false, error: error.toJSON(), paymentResponse: paymentResponse(deps, row, errorReason) };
}

/** The HTTP answer of a stored one: the data to send, or the refusal to throw. */
export function replay(answer: StoredAnswer): PaidAnswer {
  if (answer.ok) return { data: answer.data, headers: { [PAYMENT_RESPONSE_HEADER]: answer.paymentResponse } };
  throw DomainError.fromJSON(answer.error).withHeaders({ [PAYMENT_RESPONSE_HEADER]: answer.paymentResponse });
}

/** A refusal before anything was signed or sent: 402 with a failed PAYMENT-RESPONSE naming the reason. */
export function refusedBeforeSending(deps: FamilyADeps, payer: string, errorReason: string, message: string): DomainError {
  const response = encodePaymentResponseHeader({
    success: false,
    transaction: '',
    network: deps.settings.x402.network as SettleResponse['network'],
    payer,
    errorReason,
  });
  return new DomainError(
    'payment_required',
    'PAYMENT_FAILED',
    `Payment verification failed: ${message}`,
    {},
    {
      [PAYMENT_RESPONSE_HEADER]: response,
    },
  );
}
