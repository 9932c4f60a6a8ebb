/**
 * What operators see of the settlement keeper and what they may do: fills per status, the age of
 * the oldest fill not settled yet, the failed fills with their reasons, and re-driving a failed
 * fill (it goes back to `matched`, holding its funds again, and is batched anew — the chain's
 * receipt still guarantees it can never settle twice).
 */
import { addOwnerHolds } from '../../../../db/repositories/clob-commitments.repository.js';
import { findFill, normalizeFill } from '../../../../db/repositories/clob-fills.repository.js';
import { failedFills, fillStatusCounts, redriveFill } from '../../../../db/repositories/clob-settlement.repository.js';
import { DomainError } from '../../../domain/errors.js';
import { fillHolds } from '../../../domain/orderbook/index.js';
import type { FamilyCContext } from '../context.js';
import { presentFill } from '../orders/order.presenter.js';

const UNSETTLED = new Set(['matched', 'settling', 'retrying']);

/** Fills per status and the age of the oldest one not settled yet (also the metrics' gauges: clob-counts.service.ts). */
export async function keeperCounts(ctx: Pick<FamilyCContext, 'db'>, nowMs = Date.now()) {
  const counts = await fillStatusCounts(ctx.db);
  const byStatus: Record<string, number> = {};
  let oldest: string | null = null;
  for (const c of counts) {
    byStatus[c.status] = Number(c.n);
    if (UNSETTLED.has(c.status) && c.oldest && (oldest === null || String(c.oldest) < oldest)) oldest = String(c.oldest);
  }
  return {
    fillsByStatus: byStatus,
    oldestUnsettledAgeSeconds: oldest ? Math.max(0, Math.round((nowMs - Date.parse(oldest)) / 1000)) : null,
  };
}

export async function keeperStatus(ctx: Pick<FamilyCContext, 'db'>, nowMs = Date.now()) {
  return { ...(await keeperCounts(ctx, nowMs)), failedFills: (await failedFills(ctx.db, 50)).map(presentFill) };
}

export async function redriveFailedFill(ctx: Pick<FamilyCContext, 'db' | 'metrics'>, id: string): Promise<{ marketId: string }> {
  const row = /^[0-9a-f-]{36}$/i.test(id) ? await findFill(ctx.db, id.toLowerCase()) : undefined;
  if (!row) throw new DomainError('not_found', 'FILL_NOT_FOUND', `No fill ${id}`);
  const ok = await ctx.db.transaction().execute(async (trx) => {
    if (!(await redriveFill(trx, row.id, new Date().toISOString()))) return false;
    await addOwnerHolds(trx, fillHolds(normalizeFill(row)), 1n);
    return true;
  });
  if (ok) ctx.metrics.fillTransitions.inc({ from: row.status, to: 'matched' });
  if (!ok && (row.give_back === 'pending' || row.give_back === 'restored')) {
    throw new DomainError(
      'conflict',
      'FILL_GIVEN_BACK',
      `Fill ${row.id}'s quantity was given back to order ${row.give_back_order_id} (${row.give_back}); settling it now would fill that order twice`,
      { giveBack: row.give_back },
    );
  }
  if (!ok)
    throw new DomainError('conflict', 'FILL_NOT_FAILED', `Fill ${row.id} is ${row.status}; only a failed fill can be re-driven`, {
      status: row.status,
    });
  return { marketId: row.market_id };
}
