/**
 * A pause or a resolution reaches the settlements in flight at once, not after their retries.
 * Once the market's new status is confirmed on chain (the catalog row is written from the indexed
 * account, so a `paused` or `resolved` row means the chain refuses every settle from then on),
 * each pending batch of the market is ended here:
 *   1. the batch's outbound row is failed, so its job's next attempt ends at once;
 *   2. the receipts on chain are read (they are the record): a fill with a receipt landed before
 *      the status change and is `settled`; the others go back to `matched`, never retried
 *      blindly (`confirmBatches`, the same outcome as a batch that carried them no further).
 * Paused: the fills wait in `matched` for the market to resume (the planner skips a paused
 * market). Resolved: the planner fails them with `MarketResolved` and releases their holds, as it
 * does for every fill that never settled. A fill can never settle twice: bytes of a stopped batch
 * that land after a resume leave a receipt, and the next batch carrying that fill is refused with
 * `FillAlreadySettled`, which records it `settled`.
 */
import { findClobMarketById, type ClobMarketRow } from '../../../../db/repositories/clob-markets.repository.js';
import { pendingBatchesOfMarket } from '../../../../db/repositories/clob-settlement.repository.js';
import { markOutbound } from '../../../../db/repositories/outbound-transactions.repository.js';
import type { KeeperDeps } from './keeper.deps.js';
import { confirmBatches } from './settle-outcomes.js';

/** Ends the pending batches of a paused or resolved market; returns how many (0 for an active market). */
export async function haltStoppedMarket(k: KeeperDeps, marketId: string): Promise<number> {
  const market = await findClobMarketById(k.c.db, marketId);
  return market ? haltBatches(k, market) : 0;
}

/** The same for a market already read (the planner's). */
export async function haltBatches(k: KeeperDeps, market: Pick<ClobMarketRow, 'id' | 'status'>): Promise<number> {
  if (market.status !== 'paused' && market.status !== 'resolved') return 0;
  const marketId = market.id;
  // A confirmed row is recorded by its own path (the sweep's confirmBatch); every other one stops here.
  const batches = (await pendingBatchesOfMarket(k.c.db, marketId)).filter((b) => b.outbound_status !== 'confirmed');
  if (batches.length === 0) return 0;
  // The jobs first: an attempt still running cannot put its row back (markOutbound keeps `failed`).
  // A crash before the fills' outcome is recorded leaves the batch pending with a failed row: the
  // sweep halts it here again (reading the receipts) before it would abandon it.
  const now = new Date().toISOString();
  for (const b of batches) {
    await markOutbound(k.c.db, b.outbound_id, 'failed', {
      now,
      lastError: `market ${market.status}: settlement stopped, its fills returned to the queue`,
    });
  }
  await confirmBatches(
    k,
    batches.map((b) => ({ batchId: b.id, signature: b.signature })),
    'halted',
  );
  k.log.warn({ market: marketId, status: market.status, batches: batches.length }, 'settlements in flight stopped by the market status');
  return batches.length;
}
