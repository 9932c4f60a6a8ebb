/**
 * The PAYMENT-SIGNATURE header: base64 of the JSON v2 `PaymentPayload`, decoded and checked with
 * the x402 Foundation's own decoder and schema (@x402/core). The `exact` scheme on Solana carries
 * one field, `payload.transaction`: the base64 wire transaction the payer partially signed.
 * Anything else is a 400 VALIDATION_ERROR: a malformed header reaches neither the chain nor the
 * database.
 */
import { decodePaymentSignatureHeader } from '@x402/core/http';
import { PaymentPayloadV2Schema } from '@x402/core/schemas';
import type { PaymentPayload } from '@x402/core/types';
import { DomainError } from '../../../domain/errors.js';

/** A Solana transaction is at most 1232 bytes on the wire. */
const MAX_TRANSACTION_BYTES = 1232;
export const MAX_PAYMENT_SIGNATURE_LENGTH = 8192;

export interface StandardPayment {
  payload: PaymentPayload;
  /** The partially signed wire transaction. */
  raw: Uint8Array;
}

function invalid(message: string): DomainError {
  return new DomainError('invalid', 'VALIDATION_ERROR', `Malformed PAYMENT-SIGNATURE header: ${message}`);
}

export function decodeStandardPayment(header: string): StandardPayment {
  if (header.length === 0 || header.length > MAX_PAYMENT_SIGNATURE_LENGTH) throw invalid('empty or too long');
  let value: unknown;
  try {
    value = decodePaymentSignatureHeader(header.trim());
  } catch {
    throw invalid('not base64 of a JSON payment payload');
  }
  const parsed = PaymentPayloadV2Schema.safeParse(value);
  if (!parsed.success) throw invalid(`not an x402 v2 payment payload (${parsed.error.issues[0]?.path.join('.') || 'root'})`);
  const payload = parsed.data as PaymentPayload;
  if (payload.accepted.scheme !== 'exact') throw invalid(`scheme ${payload.accepted.scheme} is not offered (only exact)`);
  const transaction = (payload.payload as { transaction?: unknown }).transaction;
  if (typeof transaction !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(transaction)) throw invalid('payload.transaction must be base64');
  const raw = Buffer.from(transaction, 'base64');
  if (raw.length === 0 || raw.length > MAX_TRANSACTION_BYTES)
    throw invalid(`payload.transaction must be 1 to ${MAX_TRANSACTION_BYTES} bytes`);
  return { payload, raw };
}
