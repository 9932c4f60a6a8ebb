/**
 * The keeper's planner: puts a market's matched fills into settlement batches, in match order,
 * several in flight at once. A batch is the largest prefix of the waiting fills that one
 * transaction carries (the chain's assembly decides: size, account locks, compute). Two batches
 * may carry fills of the same order: the program computes each fill from the order's totals that
 * have landed, so the last raw unit of rounding may move between two fills of one order when they
 * land out of match order — the receipt is the record, and the fill row takes its amounts. A fill
 * whose order's proof is in a batch in flight waits for it (settle-choice.ts). Each pass plans a
 * group of batches (up to the room left in flight) and sends it (settle-group.ts: recorded in one
 * transaction, sent, and those that landed confirmed in one transaction).
 */
import { randomUUID } from 'node:crypto';
import { findClobMarketById } from '../../../../db/repositories/clob-markets.repository.js';
import type { FillRow } from '../../../../db/repositories/clob-fills.repository.js';
import { countBatchesInFlight, matchedFillsOfMarket } from '../../../../db/repositories/clob-settlement.repository.js';
import { SettlementAssemblyError } from '../../../chain/programs/exchange/index.js';
import { outboundTag } from '../../outbound/outbound-memo.js';
import type { KeeperDeps } from './keeper.deps.js';
import { ensureLookupTables } from './lookup-tables.service.js';
import { readOrderStates, settlementFills } from './settle-inputs.js';
import { failUnbatched } from './settle-outcomes.js';
import { sendPlannedBatches, type PlannedBatch } from './settle-group.js';
import { chooseBatch, type BatchChoice } from './settle-choice.js';

/**
 * Passes per planning job. On the embedded cluster each pass's batches land at once and the next
 * pass plans the fills that waited for them; a job ends after this many (the sweep plans again).
 */
const MAX_PASSES = 256;

/** Waiting fills read per planning pass (one read and one look at their chain state serve every batch planned from them). */
const PLAN_WINDOW = 128;

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
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const room = k.maxBatchesInFlight - (await countBatchesInFlight(k.c.db, marketId));
    if (room <= 0) break;
    // One read of the waiting fills and their chain state serves every batch planned from it.
    const candidates = await matchedFillsOfMarket(k.c.db, marketId, PLAN_WINDOW);
    if (candidates.length === 0) break;
    const planned = await planGroup(k, marketId, candidates, room);
    if (planned.length === 0) break; // every waiting fill waits for a proof in flight
    if (!(await sendPlannedBatches(k, marketId, planned))) break; // a concurrent planner took them
    made += planned.length;
  }
  return made;
}

/** Up to `room` batches from these waiting fills, in match order; a fill no transaction can carry is failed on the way. */
async function planGroup(k: KeeperDeps, marketId: string, candidates: FillRow[], room: number): Promise<PlannedBatch[]> {
  const inputs = await settlementFills(k.c, candidates);
  const base = {
    operator: k.c.operator.publicKey, marketUuid: marketId, usdcMint: k.c.usdcMint, feeWallet: k.c.feeWallet, recentBlockhash: ANY_BLOCKHASH,
    lookupTables: await ensureLookupTables(k, marketId, inputs), orderStates: await readOrderStates(k.c, inputs), programId: k.c.programId,
  };
  const group = new Set<string>(); // proofs this group carries
  const proving = { has: (address: string) => group.has(address) || k.proofsInFlight.has(address) };
  const planned: PlannedBatch[] = [];
  let waiting = inputs;
  while (waiting.length > 0 && planned.length < room) {
    const outboundId = randomUUID();
    let choice: BatchChoice | null;
    try {
      choice = chooseBatch(waiting, { ...base, tag: outboundTag(outboundId) }, proving);
    } catch (error) {
      if (!(error instanceof SettlementAssemblyError) || !error.fillId) throw error;
      // A fill no transaction can ever carry as recorded (its orders are inconsistent): fail it, go on.
      await failUnbatched(k, candidates.filter((f) => f.id === error.fillId), `${error.code}: ${error.message}`);
      waiting = waiting.filter((f) => f.fillId !== error.fillId);
      continue;
    }
    if (!choice) break;
    planned.push({ outboundId, choice });
    choice.proves.forEach((a) => group.add(a));
    const batched = new Set(choice.fillIds);
    waiting = waiting.filter((f) => !batched.has(f.fillId));
  }
  return planned;
}
