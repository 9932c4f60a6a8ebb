/**
 * The keeper's planner: puts a market's matched fills into settlement batches, in match order,
 * several in flight at once. A batch is the largest prefix of the waiting fills that one
 * transaction carries (the chain's assembly decides: size, account locks, compute). Two batches
 * may carry fills of the same order: the program computes each fill from the order's totals that
 * have landed, so the last raw unit of rounding may move between two fills of one order when they
 * land out of match order — the receipt is the record, and the fill row takes its amounts. A fill
 * whose order's proof is in a batch in flight waits for it (settle-choice.ts), and is left out of
 * the pass's read of waiting fills, so no number of waiting fills keeps a settleable one out of
 * the window (docs/family-c.md, "Fair settlement planning"). Each pass plans a
 * group of batches (up to the room left in flight) and sends it (settle-group.ts: recorded in one
 * transaction, sent, and those that landed confirmed in one transaction).
 */
import { randomUUID } from 'node:crypto';
import { findClobMarketById } from '../../../../db/repositories/clob-markets.repository.js';
import type { FillRow } from '../../../../db/repositories/clob-fills.repository.js';
import { matchedFillsOfMarket, waitingFillsWithRoom } from '../../../../db/repositories/clob-settlement.repository.js';
import { SettlementAssemblyError } from '@pmx/programs';
import { outboundTag } from '../../outbound/outbound-memo.js';
import type { KeeperDeps } from './keeper.deps.js';
import { ensureLookupTables, knownTables, type KnownTables } from './lookup-tables.service.js';
import { orderStateAddress, readOrderStates, settlementFills } from './settle-inputs.js';
import { failUnbatched } from './settle-outcomes.js';
import { haltBatches } from './settle-halt.js';
import { sendPlannedBatches, type PlannedBatch } from './settle-group.js';
import { chooseBatch, type BatchChoice } from './settle-choice.js';
import { turnSlice } from '../../../infra/time-slice.js';

/**
 * Passes per planning job. On the embedded cluster each pass's batches land at once and the next
 * pass plans the fills that waited for them; a job ends after this many (the sweep plans again).
 */
const MAX_PASSES = 256;

/** Waiting fills read per planning pass (one read and one look at their chain state serve every batch planned from them). */
const PLAN_WINDOW = 128;

/** Yields a turn of the event loop once this turn has run 5 ms (src/infra/time-slice.ts). */
async function turnSliced(): Promise<void> {
  const turn = turnSlice();
  if (turn) await turn;
}

/** A blockhash-shaped placeholder: sizes do not depend on the blockhash's value. */
const ANY_BLOCKHASH = '11111111111111111111111111111111';

/** Plans batches for one market until nothing waits or enough are in flight; returns how many it made. */
export async function planMarket(k: KeeperDeps, marketId: string): Promise<number> {
  const market = await findClobMarketById(k.c.db, marketId);
  if (!market) return 0;
  // Paused or resolved: its batches in flight stop retrying now (settle-halt.ts), their fills back to matched.
  await haltBatches(k, market);
  if (market.status === 'resolved') {
    await failUnbatched(
      k,
      await matchedFillsOfMarket(k.c.db, marketId, 10_000),
      'MarketResolved: the market resolved before the fill settled',
    );
    return 0;
  }
  if (market.status !== 'active') return 0; // paused: settle waits for the market to resume
  // This row serves every group of the job: its mints never change, its tables only by this keeper.
  const tables = knownTables(market);
  let made = 0;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    // One read of the waiting fills and their chain state serves every batch planned from it, and
    // the same statement counts the batches in flight (no fill read when there is no room).
    // Fills of orders whose proof is in flight are left out of the read: however many there are,
    // they never take the place of a fill that can settle now (fair by construction).
    const { room, fills: candidates } = await waitingFillsWithRoom(
      k.c.db,
      marketId,
      PLAN_WINDOW,
      k.maxBatchesInFlight,
      k.proofsInFlight.waitingOrderIds(marketId),
    );
    if (candidates.length === 0 || room <= 0) break;
    const { planned, orderAt } = await planGroup(k, tables, candidates, room);
    if (planned.length === 0) break; // nothing a transaction can carry (every candidate failed on the way)
    try {
      if (!(await sendPlannedBatches(k, market, planned))) break; // a concurrent planner took them
    } finally {
      // The proofs now in flight, named by order: the next read leaves their fills out.
      for (const address of planned.flatMap((p) => p.choice.proves)) {
        const orderId = orderAt.get(address);
        if (orderId !== undefined) k.proofsInFlight.name(address, { id: orderId, marketId });
      }
    }
    made += planned.length;
  }
  return made;
}

/**
 * Up to `room` batches from these waiting fills, in match order; a fill no transaction can carry
 * is failed on the way. Also returns the order id at each OrderState address of these fills.
 */
async function planGroup(
  k: KeeperDeps,
  tables: KnownTables,
  candidates: FillRow[],
  room: number,
): Promise<{ planned: PlannedBatch[]; orderAt: Map<string, string> }> {
  const inputs = await settlementFills(k.c, candidates);
  const orderAt = new Map<string, string>();
  for (const [i, f] of inputs.entries()) {
    // A new order's address is a PDA search (SHA-256 and curve checks): a window of new orders
    // was one synchronous run with no yield (issue 31's drain profile, docs/performance.md).
    await turnSliced();
    orderAt.set(orderStateAddress(f.takerOrder.message, k.c.programId), candidates[i]!.taker_order_id);
    orderAt.set(orderStateAddress(f.makerOrder.message, k.c.programId), candidates[i]!.maker_order_id);
  }
  const base = {
    operator: k.c.operator.publicKey,
    marketUuid: tables.marketId,
    usdcMint: k.c.usdcMint,
    feeWallet: k.c.feeWallet,
    recentBlockhash: ANY_BLOCKHASH,
    lookupTables: await ensureLookupTables(k, tables, inputs),
    orderStates: await readOrderStates(k.c, inputs),
    programId: k.c.programId,
  };
  const group = new Set<string>(); // proofs this group carries
  const proving = { has: (address: string) => group.has(address) || k.proofsInFlight.has(address) };
  const planned: PlannedBatch[] = [];
  let waiting = inputs;
  while (waiting.length > 0 && planned.length < room) {
    // Each choice assembles and compiles a transaction: up to `room` of them in a row held the
    // event loop for one group (planning was 9.5 % of a drain's busy time, docs/performance.md).
    await turnSliced();
    const outboundId = randomUUID();
    let choice: BatchChoice | null;
    try {
      choice = chooseBatch(waiting, { ...base, tag: outboundTag(outboundId) }, proving);
    } catch (error) {
      if (!(error instanceof SettlementAssemblyError) || !error.fillId) throw error;
      // A fill no transaction can ever carry as recorded (its orders are inconsistent): fail it, go on.
      await failUnbatched(
        k,
        candidates.filter((f) => f.id === error.fillId),
        `${error.code}: ${error.message}`,
      );
      waiting = waiting.filter((f) => f.fillId !== error.fillId);
      continue;
    }
    if (!choice) break;
    const batched = new Set(choice.fillIds);
    planned.push({ outboundId, choice, rows: candidates.filter((f) => batched.has(f.id)) });
    choice.proves.forEach((a) => group.add(a));
    waiting = waiting.filter((f) => !batched.has(f.fillId));
  }
  return { planned, orderAt };
}
