/**
 * The one way Family A honours a verified payment: the payment row and the intent of the platform
 * transaction it pays for are written in ONE database transaction (the payment's signature is
 * UNIQUE, so a replay or a concurrent duplicate fails here and nothing is sent twice), then the
 * intent is dispatched and awaited for up to FAMILY_A_DELIVERY_WAIT_MS.
 */
import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import { insertPayment } from '../../../db/repositories/family-a-trades.repository.js';
import type { FamilyAPaymentsTable } from '../../../db/schema.js';
import { recordOutboundIntent } from '../outbound/outbound-intents.js';
import { awaitOutbound } from '../outbound/outbound-wait.js';
import type { OutboundResult } from '../outbound/outbound.types.js';
import type { FamilyADeps } from './family-a.deps.js';
import { isUniqueViolation } from '../../../db/errors.js';
import { alreadyProcessed } from './payment-status.service.js';

export type PaymentRecord = Omit<Insertable<FamilyAPaymentsTable>, 'id' | 'outbound_id' | 'created_at'>;

export async function honourPayment(
  deps: FamilyADeps,
  payment: PaymentRecord,
  intent: { idempotencyKey: string; purpose: string; params: unknown },
): Promise<OutboundResult> {
  let outboundId: string;
  try {
    outboundId = await deps.db.transaction().execute(async (trx) => {
      const id = await recordOutboundIntent(trx, intent);
      await insertPayment(trx, { ...payment, id: randomUUID(), outbound_id: id, created_at: new Date().toISOString() });
      return id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyProcessed(payment.signature);
    throw error;
  }
  return dispatchAndAwait(deps, outboundId, deps.settings.deliveryWaitMs);
}

/** Enqueues the intent (a lost enqueue is picked up by the resume scan) and waits for it. */
export async function dispatchAndAwait(deps: FamilyADeps, outboundId: string, waitMs: number): Promise<OutboundResult> {
  await deps.dispatchOutbound(outboundId).catch((e: Error) => deps.log.warn({ outboundId, err: e.message }, 'enqueue failed; the resume scan will pick it up'));
  return awaitOutbound(deps.db, outboundId, waitMs);
}
