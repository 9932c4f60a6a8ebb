/**
 * GET /v2/payments/{txHash}: what a payment honoured by Family A led to (a buy delivery, a sell
 * or claim payout, a market creation), so a client that lost the step-2 answer (crash, timeout)
 * and got "already processed" on resubmitting learns the outcome. Read-only; one indexed lookup
 * by the payment's unique signature.
 *
 * Amounts are human units of what was paid and what is delivered: buy pays USDC and delivers
 * tokens; sell and claim pay tokens and deliver USDC; create pays the USDC fee and delivers the
 * market (deliverAmount 0). `status` is the platform transaction's: pending, sent, confirmed,
 * failed, or awaiting_funds (a payout the platform wallets cannot cover yet); `error` says why.
 *
 * `transfers` lists every inbound transfer of the transaction to a platform wallet and what became
 * of it (issue 8 item 2): honoured, refunded (with the refund's status and signature), held for a
 * quote that can still honour it, credited to a claim, or left to an operator. A transaction
 * presented but honoured for nothing answers `kind: "unhonoured"` with its transfers.
 *
 * A standard x402 payment (docs/x402-standard.md) also says `x402State`: `sent` while in flight,
 * `honoured`, `refused` (landed, trade refused: see transfers), or `failed`, `expired`, `rejected`
 * (it moved nothing; `error` says why).
 */
import { listInboundOfTransaction } from '../../../db/repositories/family-a-inbound.repository.js';
import { findPaymentOutcome } from '../../../db/repositories/family-a-trades.repository.js';
import { BASE58_SIGNATURE } from '@pmx/programs';
import { DomainError } from '../../domain/errors.js';
import { rawToHuman } from '../../domain/family-a/money.js';
import { findX402Payment, type X402PaymentRow } from '../../../db/repositories/family-a-x402.repository.js';
import type { StoredAnswer } from './x402-standard/standard-answers.js';
import type { FamilyADeps } from './family-a.deps.js';
import { presentTransfer, refundStatus } from './transfer-outcome.presenter.js';

export async function paymentStatus(deps: FamilyADeps, txHash: string) {
  if (!BASE58_SIGNATURE.test(txHash)) throw new DomainError('invalid', 'VALIDATION_ERROR', 'txHash is not a base58 transaction signature');
  const [row, rows, standard] = await Promise.all([
    findPaymentOutcome(deps.db, txHash),
    listInboundOfTransaction(deps.db, txHash),
    findX402Payment(deps.db, txHash),
  ]);
  const transfers = rows.map((r) => presentTransfer(deps, r));
  const x402State = standard ? { x402State: standard.state } : {};
  if (!row) {
    if (transfers.length === 0 && standard) return unlandedStandardPayment(standard);
    if (transfers.length === 0)
      throw new DomainError(
        'not_found',
        'PAYMENT_NOT_FOUND',
        `No payment ${txHash} was presented to this service (or none of its transfers reached a platform wallet)`,
      );
    // Presented but nothing honoured: what became of each transfer (refunded, held, credited, manual).
    const first = rows[0]!;
    return {
      txHash,
      kind: 'unhonoured' as const,
      slug: first.slug,
      wallet: first.sender_owner,
      side: null,
      paidAmount: null,
      deliverAmount: null,
      status: null,
      platformSignatures: transfers.flatMap((t) => (t.refund?.signature ? [t.refund.signature] : [])),
      error: null,
      recordedAt: first.created_at,
      updatedAt: rows.reduce((a, r) => (r.updated_at > a ? r.updated_at : a), first.updated_at),
      transfers,
      ...x402State,
    };
  }
  const status = refundStatus(row.outbound_status ?? 'pending', row.outbound_awaiting_funds_since ?? null)!;
  return {
    txHash: row.signature,
    kind: row.kind,
    slug: row.slug,
    wallet: row.wallet,
    side: row.side,
    paidAmount: rawToHuman(BigInt(row.paid_raw)),
    deliverAmount: rawToHuman(BigInt(row.deliver_raw)),
    status,
    platformSignatures: row.outbound_signature ? [row.outbound_signature] : [],
    error: status === 'failed' || status === 'awaiting_funds' ? row.outbound_error : null,
    recordedAt: row.created_at,
    updatedAt: row.outbound_updated_at ?? row.created_at,
    transfers,
    ...x402State,
  };
}

/** A standard x402 payment that moved nothing (yet): in flight (`sent`), or failed, expired or rejected. */
function unlandedStandardPayment(p: X402PaymentRow) {
  const answer = p.answer ? (JSON.parse(p.answer) as StoredAnswer) : undefined;
  return {
    txHash: p.signature,
    kind: 'unhonoured' as const,
    slug: p.slug,
    wallet: p.payer,
    side: p.side,
    paidAmount: null,
    deliverAmount: null,
    status: null,
    platformSignatures: [],
    error: answer && !answer.ok ? answer.error.message : null,
    recordedAt: p.created_at,
    updatedAt: p.updated_at,
    transfers: [],
    x402State: p.state,
  };
}

/** The refusal of a payment already honoured (nothing to account for again). */
export class AlreadyProcessed extends DomainError {
  constructor(txHash: string) {
    super('invalid', 'VALIDATION_ERROR', `Transaction ${txHash} was already processed; GET /v2/payments/${txHash} answers what it led to`);
  }
}

/** The refusal of a payment already honoured: it names where its outcome can be read. */
export function alreadyProcessed(txHash: string): DomainError {
  return new AlreadyProcessed(txHash);
}
