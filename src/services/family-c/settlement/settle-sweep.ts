/**
 * The keeper's sweep (every couple of seconds, and after a restart): reconciles each batch in
 * flight with its outbound transaction — confirmed but not yet recorded (a crash between the two)
 * → record it; failed (it never landed) → its fills go back to the queue; being retried → its
 * fills read `retrying` with the attempt count; its market paused or resolved → stopped
 * (settle-halt.ts, in case the status change's own planning job was missed) — and asks for
 * batches for every market whose fills wait.
 */
import {
  fillsOfBatch,
  marketsWithMatchedFills,
  markRetrying,
  pendingBatches,
} from '../../../../db/repositories/clob-settlement.repository.js';
import { lockFills } from '../../../../db/row-locks.js';
import type { KeeperDeps } from './keeper.deps.js';
import { abandonBatch, announce, confirmBatch } from './settle-outcomes.js';
import { haltStoppedMarket } from './settle-halt.js';
import { countMoves, movedRows } from './settle-metrics.js';

export async function sweepSettlement(
  k: KeeperDeps,
  planMarket: (marketId: string) => Promise<void>,
): Promise<{ batches: number; markets: number }> {
  const batches = await pendingBatches(k.c.db, 500);
  for (const marketId of new Set(batches.map((b) => b.market_id))) await haltStoppedMarket(k, marketId);
  for (const b of batches) {
    if (b.outbound_status === 'confirmed') await confirmBatch(k, b.id, b.signature);
    else if (b.outbound_status === 'failed') await abandonBatch(k, b.id, b.last_error ?? 'the settlement transaction failed');
    else if (Number(b.attempts) > 1 && b.last_error) {
      const before = await fillsOfBatch(k.c.db, b.id); // for the metrics' `from`: settling, or retrying again
      const lastError = b.last_error;
      const ids = await k.c.db.transaction().execute(async (trx) => {
        await lockFills(
          trx,
          before.map((r) => r.id),
        ); // in one order with the batch's confirmation (db/row-locks.ts)
        return markRetrying(trx, b.id, Number(b.attempts) - 1, lastError, new Date().toISOString());
      });
      countMoves(k.c.metrics, movedRows(before, ids), 'retrying');
      await announce(k, ids);
    }
  }
  const markets = await marketsWithMatchedFills(k.c.db, 200);
  for (const m of markets) await planMarket(m);
  return { batches: batches.length, markets: markets.length };
}
