/**
 * GET /v2/payments/{txHash}: what a payment honoured by Family A led to (a buy delivery, a sell
 * or claim payout, a market creation), so a client that lost the step-2 answer (crash, timeout)
 * and got "already processed" on resubmitting learns the outcome. Read-only; one indexed lookup
 * by the payment's unique signature.
 *
 * Amounts are human units of what was paid and what is delivered: buy pays USDC and delivers
 * tokens; sell and claim pay tokens and deliver USDC; create pays the USDC fee and delivers the
 * market (deliverAmount 0). `status` is the platform transaction's: pending, sent, confirmed or
 * failed (`error` then says why).
 */
import { findPaymentOutcome } from '../../../db/repositories/family-a-trades.repository.js';
import { DomainError } from '../../domain/errors.js';
import { rawToHuman } from '../../domain/family-a/money.js';
import type { FamilyADeps } from './family-a.deps.js';

const SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/;

export async function paymentStatus(deps: FamilyADeps, txHash: string) {
  if (!SIGNATURE.test(txHash)) throw new DomainError('invalid', 'VALIDATION_ERROR', 'txHash is not a base58 transaction signature');
  const row = await findPaymentOutcome(deps.db, txHash);
  if (!row) throw new DomainError('not_found', 'PAYMENT_NOT_FOUND', `No payment ${txHash} was honoured by this service (a refused payment is not recorded)`);
  const platformSignatures = row.outbound_signature ? [row.outbound_signature] : [];
  return {
    txHash: row.signature,
    kind: row.kind,
    slug: row.slug,
    wallet: row.wallet,
    side: row.side,
    paidAmount: rawToHuman(BigInt(row.paid_raw)),
    deliverAmount: rawToHuman(BigInt(row.deliver_raw)),
    status: row.outbound_status ?? 'pending',
    platformSignatures,
    error: row.outbound_status === 'failed' ? row.outbound_error : null,
    recordedAt: row.created_at,
    updatedAt: row.outbound_updated_at ?? row.created_at,
  };
}

/** The refusal of a payment already honoured: it names where its outcome can be read. */
export function alreadyProcessed(txHash: string): DomainError {
  return new DomainError('invalid', 'VALIDATION_ERROR', `Transaction ${txHash} was already processed; GET /v2/payments/${txHash} answers what it led to`);
}
