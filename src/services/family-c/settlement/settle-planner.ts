/**
 * The keeper's planner: puts a market's matched fills into settlement batches, in match order,
 * several in flight at once. A batch is the largest prefix of the waiting fills that one
 * transaction carries (the chain's assembly decides: size, account locks, compute). Two batches
 * may carry fills of the same order: the program computes each fill from the order's totals that
 * have landed, so the last raw unit of rounding may move between two fills of one order when they
 * land out of match order — the receipt is the record, and the fill row takes its amounts. Each
 * batch, its fills' move to `settling` and its outbound intent are recorded in one transaction;
 * the outbound machinery sends it. A fill whose order's proof is in a batch in flight waits for
 * it (settle-choice.ts).
 */
import { randomUUID } from 'node:crypto';
import { findClobMarketById } from '../../../../db/repositories/clob-markets.repository.js';
import {
  countBatchesInFlight, insertBatch, matchedFillsOfMarket, moveFillsToBatch,
} from '../../../../db/repositories/clob-settlement.repository.js';
import { SettlementAssemblyError } from '../../../chain/programs/exchange/index.js';
import { outboundTag } from '../../outbound/outbound-memo.js';
import { recordOutboundIntent } from '../../outbound/outbound-intents.js';
import type { KeeperDeps } from './keeper.deps.js';
import { ensureLookupTables } from './lookup-tables.service.js';
import { readOrderStates, settlementFills } from './settle-inputs.js';
import { announce, failUnbatched } from './settle-outcomes.js';
import { chooseBatch, type BatchChoice } from './settle-choice.js';

export const CLOB_SETTLE = 'clob.settle';
export interface SettleParams {
  batchId: string;
  marketId: string;
}

/** Waiting fills read per planning pass (one read and one look at their chain state serve every batch planned from them). */
const PLAN_WINDOW = 64;

/** A blockhash-shaped placeholder: sizes do not depend on the blockhash's value. */
const ANY_BLOCKHASH = '11111111111111111111111111111111';

/** Plans batches for one market until nothing waits or enough are in flight; returns how many it made. */
export async function planMarket(k: KeeperDeps, marketId: string): Promise<number> {
  const market = await findClobMarketById(k.c.db, marketId);
  if (!market) return 0;
  if (market.status === 'resolved') {
    await failUnbatched(k, await matchedFillsOfMarket(k.c.db, marketId, 10_000), 'MarketResolved: the market resolved before the fill settled');
    return 0;
  }
  if (market.status !== 'active') return 0; // paused: settle waits for the market to resume
  let made = 0;
  let inFlight = await countBatchesInFlight(k.c.db, marketId);
  while (inFlight < k.maxBatchesInFlight) {
    // One read of the waiting fills and their chain state serves every batch planned from it.
    const candidates = await matchedFillsOfMarket(k.c.db, marketId, PLAN_WINDOW);
    if (candidates.length === 0) break;
    const inputs = await settlementFills(k.c, candidates);
    const base = {
      operator: k.c.operator.publicKey, marketUuid: marketId, usdcMint: k.c.usdcMint, feeWallet: k.c.feeWallet, recentBlockhash: ANY_BLOCKHASH,
      lookupTables: await ensureLookupTables(k, marketId, inputs), orderStates: await readOrderStates(k.c, inputs), programId: k.c.programId,
    };
    let waiting = inputs;
    while (waiting.length > 0 && inFlight < k.maxBatchesInFlight) {
      const outboundId = randomUUID();
      let choice: BatchChoice | null;
      try {
        choice = chooseBatch(waiting, { ...base, tag: outboundTag(outboundId) }, k.proofsInFlight);
      } catch (error) {
        if (!(error instanceof SettlementAssemblyError) || !error.fillId) throw error;
        // A fill no transaction can ever carry as recorded (its orders are inconsistent): fail it, go on.
        await failUnbatched(k, candidates.filter((f) => f.id === error.fillId), `${error.code}: ${error.message}`);
        waiting = waiting.filter((f) => f.fillId !== error.fillId);
        continue;
      }
      if (!choice) return made; // every waiting fill waits for a registration in flight
      if (!(await recordBatch(k, marketId, outboundId, choice))) return made; // a concurrent planner took them
      made++;
      inFlight++;
      const batched = new Set(choice.fillIds);
      waiting = waiting.filter((f) => !batched.has(f.fillId));
    }
    if (waiting.length > 0 || candidates.length < PLAN_WINDOW) break;
  }
  return made;
}

/** Records the batch, its fills' move to `settling` and its outbound intent in one transaction, then dispatches it. */
async function recordBatch(k: KeeperDeps, marketId: string, outboundId: string, { fillIds, proves, message }: BatchChoice): Promise<boolean> {
  const batchId = randomUUID();
  const now = new Date().toISOString();
  const moved = await k.c.db.transaction().execute(async (trx) => {
    await insertBatch(trx, { id: batchId, marketId, outboundId, fillIds, now });
    if ((await moveFillsToBatch(trx, fillIds, batchId, now)) !== fillIds.length) throw new Error('fills taken by a concurrent planner');
    const params: SettleParams = { batchId, marketId };
    await recordOutboundIntent(trx, { id: outboundId, idempotencyKey: `c-settle-${batchId}`, purpose: CLOB_SETTLE, params });
    return true;
  }).catch((error: Error) => {
    if (error.message === 'fills taken by a concurrent planner') return false;
    throw error;
  });
  if (!moved) return false;
  k.proofsInFlight.add(batchId, proves);
  k.plannedMessages.keep(batchId, message);
  await announce(k, fillIds); // fill:settling
  await k.c.dispatchOutbound(outboundId).catch((err: Error) => k.log.warn({ err, outboundId }, 'enqueue failed; the resume scan will pick it up'));
  return true;
}
