/**
 * Defence in depth behind the API's strict verifier: when the chain's Ed25519 program refuses a
 * settle transaction (an InstructionError carrying a PrecompileError code, no exchange refusal
 * log), the keeper re-verifies every order proof of the batch with the same strict rule
 * (a proof instruction may carry two signatures) and, for each order whose signature fails:
 *   - fails that order's fills of the batch at once (`failed`, the reason names the order; never
 *     retried as transient), releasing their holds;
 *   - gives the counterparty its quantity back, as `failed_insufficient_balance` does (the
 *     matcher restores it on the counterparty's order while that still rests);
 *   - cancels that order through its market's matcher (user event sent).
 * The batch's other fills go back to `matched` without a retry counted, and are planned again.
 * When every proof verifies, nothing is done here: the refusal was something else (a retry).
 */
import { markGiveBacks, type FillRow } from '../../../../db/repositories/clob-fills.repository.js';
import { lockFills } from '../../../../db/row-locks.js';
import { signedOrders } from '../../../../db/repositories/clob-orders.repository.js';
import { endFills, fillsOfBatch, releaseFills, setBatchStatus } from '../../../../db/repositories/clob-settlement.repository.js';
import { verifyStrict } from '@pmx/programs';
import { orderSigningText } from '../../../domain/orderbook/index.js';
import { PublicKey } from '@solana/web3.js';
import type { KeeperDeps } from './keeper.deps.js';
import { announce, releaseHolds } from './settle-outcomes.js';
import { countMoves, movedRows } from './settle-metrics.js';

/** Agave's PrecompileError codes run 0 … 4 (InvalidPublicKey … InvalidInstructionDataSize). */
const PRECOMPILE_ERROR_MAX = 4;

/** Is this transaction error the shape a precompile's refusal takes (`{InstructionError:[i,{Custom:0…4}]}`)? */
export function isPrecompileRefusal(err: unknown): boolean {
  if (typeof err !== 'object' || err === null || !('InstructionError' in err)) return false;
  const [, inner] = (err as { InstructionError: [number, unknown] }).InstructionError;
  const custom = typeof inner === 'object' && inner !== null && 'Custom' in inner ? (inner as { Custom: unknown }).Custom : undefined;
  return typeof custom === 'number' && custom >= 0 && custom <= PRECOMPILE_ERROR_MAX;
}

/** The orders of these fills whose stored proof the chain's Ed25519 rule refuses, with their owner. */
export async function ordersWithBadProofs(k: KeeperDeps, rows: readonly FillRow[]): Promise<Map<string, string>> {
  const orders = await signedOrders(k.c.db, [...new Set(rows.flatMap((r) => [r.maker_order_id, r.taker_order_id]))]);
  const bad = new Map<string, string>();
  for (const [id, o] of orders) {
    const message = Buffer.from(o.message, 'hex');
    const signature = Buffer.from(o.signature, 'base64');
    if (!verifyStrict(Buffer.from(orderSigningText(message), 'utf8'), signature, new PublicKey(o.owner).toBytes())) bad.set(id, o.owner);
  }
  return bad;
}

const reasonFor = (orderId: string, owner: string) =>
  `InvalidSignature: order ${orderId} (owner ${owner}): its signature is refused by the Ed25519 program (verify_strict); the order is cancelled`;

/**
 * Handles a batch the Ed25519 program refused (see the module comment); the fills it failed, or
 * none when every proof verifies (then the refusal is not a proof's and the caller retries).
 */
export async function refuseBadProofs(k: KeeperDeps, batchId: string): Promise<string[]> {
  const rows = await fillsOfBatch(k.c.db, batchId);
  const bad = await ordersWithBadProofs(k, rows);
  if (bad.size === 0) return [];
  const refused = rows.filter((r) => bad.has(r.maker_order_id) || bad.has(r.taker_order_id));
  const now = new Date().toISOString();
  const ended = await k.c.db.transaction().execute(async (trx) => {
    // Every fill of the batch, in one order, before the holds (db/row-locks.ts): some are released after them.
    await lockFills(
      trx,
      rows.map((r) => r.id),
    );
    const ids: string[] = [];
    for (const [orderId, owner] of bad) {
      const ofOrder = refused.filter((r) => (r.maker_order_id === orderId || r.taker_order_id === orderId) && !ids.includes(r.id));
      ids.push(
        ...(await endFills(
          trx,
          batchId,
          ofOrder.map((r) => r.id),
          { status: 'failed', failureReason: reasonFor(orderId, owner), now },
        )),
      );
    }
    const failed = refused.filter((r) => ids.includes(r.id));
    await releaseHolds(trx, failed);
    // The innocent side gets its quantity back; a fill whose two proofs both fail gives nothing.
    await markGiveBacks(
      trx,
      failed.flatMap((r) => {
        const innocent = bad.has(r.maker_order_id) ? r.taker_order_id : r.maker_order_id;
        return bad.has(innocent) ? [] : [{ fillId: r.id, orderId: innocent }];
      }),
    );
    const released = await releaseFills(
      trx,
      batchId,
      rows.filter((r) => !refused.includes(r)).map((r) => r.id),
      null,
      now,
      false,
    );
    const recorded = await setBatchStatus(trx, batchId, 'failed', now);
    return { ids, released, recorded };
  });
  countMoves(k.c.metrics, movedRows(rows, ended.ids), 'failed');
  countMoves(k.c.metrics, movedRows(rows, ended.released), 'matched');
  if (ended.recorded) k.c.metrics.settleTransactions.inc({ outcome: 'refused' });
  k.proofsInFlight.end(batchId);
  k.log.warn(
    { batch: batchId, fills: ended.ids, orders: [...bad.keys()] },
    'order proofs refused by the Ed25519 program: fills failed, orders cancelled',
  );
  const marketId = rows[0]?.market_id;
  if (marketId) for (const orderId of bad.keys()) await k.cancelOrder(marketId, orderId);
  await announce(k, [...ended.ids, ...ended.released]);
  await k.afterSettlement(marketId, { fillsFailed: true });
  return ended.ids;
}
