/**
 * The Family A money sweep (job `family-a.money.sweep`, every FAMILY_A_SWEEP_INTERVAL_MS):
 *   - held transfers whose deadline passed (the quote or creation window that could honour them,
 *     plus FAMILY_A_PRESENT_GRACE_SEC) are refunded: a payment nobody presented correctly in time
 *     is not kept;
 *   - credits of a wallet that has claimed the market meanwhile (a race of two confirms) are
 *     refunded: no claim can count them any more;
 *   - pending creations whose window closed more than the grace ago are removed, releasing their
 *     slugs (issue 8 item 6).
 *   - quotes that expired more than the grace ago are deleted (step 1 records one per request,
 *     refused or not, so the table would otherwise grow without bound). The grace is the
 *     documented time to present a payment after its quote expired: a held transfer waits until
 *     the latest matching quote's expiry plus the grace, so it never needs a quote deleted here
 *     (the held step above refunds it first), and a later step 2 finds no quote and its transfer
 *     is refunded. family_a_payments.quote_id is a record, never read back.
 * Each step is a compare-and-set in its own database transaction, so a step 2 honouring the same
 * transfer (or paying the same creation) at the same moment wins or loses as a whole.
 */
import { setMarketStatus } from '../../../db/repositories/family-a-markets.repository.js';
import {
  deleteExpiredMarket,
  deleteTermsOfExpiredMarket,
  listExpiredPendingCreations,
} from '../../../db/repositories/family-a-creations.repository.js';
import { listDueHeld, listStrandedCredits } from '../../../db/repositories/family-a-inbound.repository.js';
import { deleteQuotesExpiredBefore } from '../../../db/repositories/family-a-trades.repository.js';
import type { FamilyADeps } from './family-a.deps.js';
import { refundRecorded } from './inbound-settlement.js';
import { timeSlicer } from '../../infra/time-slice.js';

const BATCH = 100;
/** Quotes go in batches of QUOTE_BATCH, at most QUOTE_BATCHES per run; a larger backlog drains over the next runs. */
const QUOTE_BATCH = 500;
const QUOTE_BATCHES = 20;

export interface SweepResult {
  refunds: string[];
  heldRefunded: number;
  strandedRefunded: number;
  expiredCreations: string[];
  quotesDeleted: number;
}

export async function sweepFamilyAMoney(deps: FamilyADeps, nowMs = Date.now()): Promise<SweepResult> {
  const result: SweepResult = { refunds: [], heldRefunded: 0, strandedRefunded: 0, expiredCreations: [], quotesDeleted: 0 };
  // Hundreds of commits, each an fsync on SQLite (synchronous): the loop yields between them.
  const slice = timeSlicer();
  for (const row of await listDueHeld(deps.db, new Date(nowMs).toISOString(), BATCH)) {
    const id = await deps.db
      .transaction()
      .execute((trx) => refundRecorded(trx, deps, row, `${row.reason}, but nobody presented it with that quote by ${row.refund_after}`));
    if (id) result.refunds.push(id);
    result.heldRefunded++;
    await slice();
  }
  for (const row of await listStrandedCredits(deps.db, BATCH)) {
    const id = await deps.db
      .transaction()
      .execute((trx) => refundRecorded(trx, deps, row, 'credited winning tokens, but this wallet claimed the market without them'));
    if (id) result.refunds.push(id);
    result.strandedRefunded++;
    await slice();
  }
  const before = new Date(nowMs - deps.settings.presentGraceSec * 1000).toISOString();
  for (const m of await listExpiredPendingCreations(deps.db, before, BATCH)) {
    const removed = await deps.db.transaction().execute(async (trx) => {
      if (!(await setMarketStatus(trx, m.id, ['pending'], 'expired', new Date(nowMs).toISOString()))) return false; // paid meanwhile
      await deleteTermsOfExpiredMarket(trx, m.id);
      return deleteExpiredMarket(trx, m.id);
    });
    if (removed) result.expiredCreations.push(m.slug);
    await slice();
  }
  for (let batch = 0; batch < QUOTE_BATCHES; batch++) {
    const deleted = await deleteQuotesExpiredBefore(deps.db, before, QUOTE_BATCH);
    result.quotesDeleted += deleted;
    if (deleted < QUOTE_BATCH) break;
    await slice();
  }
  for (const id of result.refunds) {
    await deps
      .dispatchOutbound(id)
      .catch((e: Error) => deps.log.warn({ outboundId: id, err: e.message }, 'refund enqueue failed; the resume scan will pick it up'));
  }
  if (result.refunds.length + result.expiredCreations.length + result.quotesDeleted > 0)
    deps.log.info({ ...result, refunds: result.refunds.length }, 'family-a money sweep');
  return result;
}
