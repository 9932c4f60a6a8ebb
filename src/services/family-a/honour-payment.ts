/**
 * The one way Family A honours a verified payment. In ONE database transaction: the inbound
 * transfers it honours move `held → honoured` (a compare-and-set: a transfer refunded first can
 * no longer be honoured), every other credit of the same transaction to a platform wallet is
 * settled (refunded, or credited to a claim: the signature is consumed, no quote can honour them
 * any more), the payment row (signature UNIQUE: a replay or a concurrent duplicate fails here) and
 * the intent of the platform transaction it pays for are written, with whatever else the caller
 * records (a claim, a market's new status). Then the intents are dispatched and the delivery
 * awaited for up to FAMILY_A_DELIVERY_WAIT_MS.
 */
import { randomUUID } from 'node:crypto';
import type { Insertable, Transaction } from 'kysely';
import { findInbound, type InboundState } from '../../../db/repositories/family-a-inbound.repository.js';
import { insertPayment } from '../../../db/repositories/family-a-trades.repository.js';
import type { Database, FamilyAPaymentsTable } from '../../../db/schema.js';
import { DomainError } from '../../domain/errors.js';
import { recordOutboundIntent } from '../outbound/outbound-intents.js';
import { awaitOutbound } from '../outbound/outbound-wait.js';
import type { OutboundResult } from '../outbound/outbound.types.js';
import type { FamilyADeps } from './family-a.deps.js';
import { loadCreditFacts } from './inbound-facts.js';
import { applySettlement, planSettlement, TransferAlreadyDecided, type HonouredCredit } from './inbound-settlement.js';
import { isUniqueViolation } from '../../../db/errors.js';
import { alreadyProcessed } from './payment-status.service.js';
import type { LandedTransfer } from './x402-payment.verifier.js';

export type PaymentRecord = Omit<Insertable<FamilyAPaymentsTable>, 'id' | 'outbound_id' | 'created_at'>;

export interface Honour {
  landed: LandedTransfer;
  /** The credited accounts (and how much of each) this payment honours. */
  honoured: HonouredCredit[];
  /** States an honoured transfer may leave: `held`; a claim also takes its own earlier credit. */
  from?: InboundState[];
  /** More rows of the same database transaction (a claim, a status change); may throw to refuse. */
  record?: (trx: Transaction<Database>, outboundId: string) => Promise<void>;
}

async function decidedOtherwise(deps: FamilyADeps, lost: TransferAlreadyDecided): Promise<DomainError> {
  const row = await findInbound(deps.db, lost.signature, lost.index);
  if (!row || row.state === 'honoured' || row.state === 'claimed') return alreadyProcessed(lost.signature);
  return new DomainError(
    'payment_required',
    'PAYMENT_FAILED',
    `Payment verification failed: this transfer is ${row.state} and can no longer be honoured (${row.reason})`,
  );
}

export async function honourPayment(
  deps: FamilyADeps,
  payment: PaymentRecord,
  intent: { idempotencyKey: string; purpose: string; params: unknown },
  honour: Honour,
): Promise<OutboundResult> {
  const facts = await loadCreditFacts(deps, honour.landed);
  for (const h of honour.honoured) {
    if (!facts.some((f) => f.credit.account === h.account))
      throw new Error(`honoured account ${h.account} is not a credit of ${payment.signature} to a platform wallet`);
  }
  const plan = planSettlement(deps, payment.signature, honour.landed.blockTimeMs, facts, honour.honoured, true);
  let outboundId: string;
  let refunds: string[];
  try {
    [outboundId, refunds] = await deps.db.transaction().execute(async (trx) => {
      const settled = await applySettlement(trx, plan, honour.from);
      const id = await recordOutboundIntent(trx, intent);
      await insertPayment(trx, { ...payment, id: randomUUID(), outbound_id: id, created_at: new Date().toISOString() });
      await honour.record?.(trx, id);
      return [id, settled] as const;
    });
  } catch (error) {
    if (error instanceof TransferAlreadyDecided) throw await decidedOtherwise(deps, error);
    if (isUniqueViolation(error)) throw alreadyProcessed(payment.signature);
    throw error;
  }
  for (const id of refunds)
    await deps
      .dispatchOutbound(id)
      .catch((e: Error) => deps.log.warn({ outboundId: id, err: e.message }, 'refund enqueue failed; the resume scan will pick it up'));
  return dispatchAndAwait(deps, outboundId, deps.settings.deliveryWaitMs);
}

/** Enqueues the intent (a lost enqueue is picked up by the resume scan) and waits for it. */
export async function dispatchAndAwait(deps: FamilyADeps, outboundId: string, waitMs: number): Promise<OutboundResult> {
  await deps
    .dispatchOutbound(outboundId)
    .catch((e: Error) => deps.log.warn({ outboundId, err: e.message }, 'enqueue failed; the resume scan will pick it up'));
  return awaitOutbound(deps.db, outboundId, waitMs);
}
