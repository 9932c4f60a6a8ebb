/**
 * A refused step 2 (buy, sell, creation, claim confirm) no longer leaves the money it points at
 * unrecorded (issue 8 item 2). Once the refusal is decided, every credit of the presented
 * transaction to a platform wallet is recorded and settled: refunded at once when nothing can
 * honour it, held while a quote of its sender (or a pending creation) still can, credited when it
 * is winning tokens a claim will count. The refusal then says which, with the refund's signature
 * when it confirmed within FAMILY_A_DELIVERY_WAIT_MS (otherwise GET /v2/payments/{txHash}).
 *
 * Who presents a transaction does not matter: refunds go back to the account the money came from,
 * and nothing that a quote can still honour is refunded before that quote's deadline plus grace.
 */
import { listInboundOfTransaction } from '../../../db/repositories/family-a-inbound.repository.js';
import { findPaymentBySignature } from '../../../db/repositories/family-a-trades.repository.js';
import { DomainError, isDomainError } from '../../domain/errors.js';
import { awaitOutbound } from '../outbound/outbound-wait.js';
import type { FamilyADeps } from './family-a.deps.js';
import { loadCreditFacts } from './inbound-facts.js';
import { applySettlement, planSettlement } from './inbound-settlement.js';
import { AlreadyProcessed } from './payment-status.service.js';
import { describeOutcome, presentTransfer, type TransferOutcome } from './transfer-outcome.presenter.js';
import { fetchLandedTransfer, type LandedTransfer } from './x402-payment.verifier.js';

export interface PaymentOutcome {
  txHash: string;
  lookup: string;
  transfers: TransferOutcome[];
}

/** Dispatches the transaction's unfinished refunds and waits (bounded) for them. */
async function driveRefunds(deps: FamilyADeps, outboundIds: string[]): Promise<void> {
  await Promise.all(
    outboundIds.map(async (id) => {
      await deps
        .dispatchOutbound(id)
        .catch((e: Error) => deps.log.warn({ outboundId: id, err: e.message }, 'refund enqueue failed; the resume scan will pick it up'));
      await awaitOutbound(deps.db, id, deps.settings.deliveryWaitMs);
    }),
  );
}

export async function transactionOutcome(deps: FamilyADeps, txHash: string): Promise<PaymentOutcome | null> {
  const rows = await listInboundOfTransaction(deps.db, txHash);
  if (rows.length === 0) return null;
  return { txHash, lookup: `/v2/payments/${txHash}`, transfers: rows.map((r) => presentTransfer(deps, r)) };
}

/**
 * Records and settles every platform-wallet credit of a transaction nobody honoured by this
 * request. Idempotent: a credit already decided stays as it is. A transaction honoured before
 * migration 0004 (a payment row, no transfer rows) is left alone: which of its credits was
 * honoured is not recorded, so none of them can be refunded safely.
 */
export async function accountRefusedPayment(deps: FamilyADeps, txHash: string, landed?: LandedTransfer): Promise<PaymentOutcome | null> {
  const tx = landed ?? (await fetchLandedTransfer(deps, txHash, 'Payment verification failed').catch(() => null));
  if (!tx || (tx.err !== null && tx.err !== undefined)) return null;
  const consumed = (await findPaymentBySignature(deps.db, txHash)) !== undefined;
  const known = await listInboundOfTransaction(deps.db, txHash);
  if (consumed && known.length === 0) return null;
  const facts = await loadCreditFacts(deps, tx);
  if (facts.length === 0) return null;
  const plan = planSettlement(deps, txHash, tx.blockTimeMs, facts, [], consumed);
  await deps.db.transaction().execute((trx) => applySettlement(trx, plan));
  const rows = await listInboundOfTransaction(deps.db, txHash);
  const unfinished = rows.filter(
    (r) =>
      r.outbound_id !== null && (r.refund_status === 'pending' || r.refund_status === 'sent') && r.refund_awaiting_funds_since === null,
  );
  await driveRefunds(
    deps,
    unfinished.map((r) => r.outbound_id!),
  );
  return transactionOutcome(deps, txHash);
}

/** The refusal with what became of the money: the message says it, `paymentOutcome` details it. */
function withOutcome(error: DomainError, outcome: PaymentOutcome): DomainError {
  return new DomainError(error.kind, error.code, `${error.message}${describeOutcome(outcome.txHash, outcome.transfers)}`, {
    ...error.extra,
    paymentOutcome: outcome,
  });
}

/**
 * Runs a step 2; if it refuses the payment (any domain error but "already processed"), accounts
 * for the presented transaction before answering. A failure of the accounting itself (the chain or
 * the database away) leaves the refusal as it was: the next presentation accounts again.
 */
export async function withRefusalAccounting<T>(
  deps: FamilyADeps,
  txHash: string,
  run: (remember: (landed: LandedTransfer) => void) => Promise<T>,
): Promise<T> {
  let landed: LandedTransfer | undefined;
  try {
    return await run((l) => (landed = l));
  } catch (error) {
    if (!isDomainError(error) || error instanceof AlreadyProcessed) throw error;
    let outcome: PaymentOutcome | null = null;
    try {
      outcome = await accountRefusedPayment(deps, txHash, landed);
    } catch (accounting) {
      deps.log.error({ txHash, err: (accounting as Error).message }, 'could not account for a refused payment; the next presentation will');
    }
    throw outcome ? withOutcome(error, outcome) : error;
  }
}
