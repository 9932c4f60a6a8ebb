/**
 * How a settlement batch ends, each outcome in one database transaction with its holds:
 * - confirmed: fills with a receipt on chain are `settled` (the receipt's amounts are the truth),
 *   the others go back to `matched` (a register-only transaction, or a prefix that fitted);
 * - a fill the chain refuses (its refusal log names it): settle-refused-fill.ts;
 * - the transaction never landed (its outbound row failed): every fill goes back to `matched`
 *   with `retry_count + 1`.
 * A fill that ends gives back what it held (the holds ledger). A confirmed batch also writes its
 * owners' smart-wallet balances, read from the chain after the settlement, into the token-account
 * index in the same transaction: the index is refreshed by a separate job, and until then it
 * would show the pre-settlement balance with the hold already gone (withdrawable and the
 * matcher's funds check would count the fill's money twice).
 * Every transaction here takes its row locks in the daemon's one order (db/row-locks.ts): token
 * accounts (sorted), outbound rows, every fill it may write (sorted, all at once), batches, holds
 * (sorted). On PostgreSQL two outcomes recorded at once (the sender's, the sweep's) then wait for
 * each other instead of deadlocking.
 */
import { addOwnerHolds } from '../../../../db/repositories/clob-commitments.repository.js';
import {
  failMatchedFill,
  fillsByIds,
  normalizeFill,
  type FillAmounts,
  type FillRow,
} from '../../../../db/repositories/clob-fills.repository.js';
import { findClobMarketById, type ClobMarketRow } from '../../../../db/repositories/clob-markets.repository.js';
import {
  fillsOfBatch,
  fillsOfBatches,
  releaseFills,
  setBatchStatus,
  setBatchesStatus,
} from '../../../../db/repositories/clob-settlement.repository.js';
import { settleLockedGroupFills } from '../../../../db/repositories/clob-settle-group.repository.js';
import { markOutboundsConfirmed } from '../../../../db/repositories/outbound-transactions.repository.js';
import { upsertTokenAccounts, type TokenAccountRow } from '../../../../db/repositories/token-accounts.repository.js';
import { lockFills } from '../../../../db/row-locks.js';
import type { Database } from '../../../../db/schema.js';
import type { Transaction } from 'kysely';
import { fillHolds } from '../../../domain/orderbook/index.js';
import { fillEvents } from '../events/user-events.js';
import { presentFill } from '../orders/order.presenter.js';
import type { KeeperDeps } from './keeper.deps.js';
import { readReceipts, readSmartWalletAccounts } from './settle-inputs.js';
import { countMoves, countSettled, movedRows } from './settle-metrics.js';

export async function releaseHolds(trx: Transaction<Database>, rows: FillRow[]): Promise<void> {
  await addOwnerHolds(
    trx,
    rows.flatMap((r) => fillHolds(normalizeFill(r))),
    -1n,
  );
}

/** Each receipt's amounts, by fill id, as the fill row stores them. */
function receiptAmounts(receipts: Awaited<ReturnType<typeof readReceipts>>): Map<string, FillAmounts> {
  const amounts = new Map<string, FillAmounts>();
  for (const [id, r] of receipts)
    amounts.set(id, {
      usdcAmount: r.takerUsdc,
      makerUsdc: r.makerUsdc,
      takerFee: r.takerFee,
      makerRebate: r.makerRebate,
      protocolFee: r.protocolFee,
      roundingDust: r.roundingDust,
    });
  return amounts;
}

/** Announces fills whose status changed (user channel) and settled trades (market channel). */
export async function announce(k: KeeperDeps, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await announceRows(k, await fillsByIds(k.c.db, ids));
}

/** `announce` for rows the caller has as they are now. */
export async function announceRows(k: KeeperDeps, rows: readonly FillRow[]): Promise<void> {
  if (rows.length === 0) return;
  const now = Date.now();
  const fills = rows.map(presentFill);
  await k.bus.publishUser(fills.flatMap((fill) => fillEvents(fill, now)));
  const settled = fills.filter((f) => f.status === 'settled');
  const byMarket = new Map<string, typeof settled>();
  for (const f of settled) byMarket.set(f.marketId, [...(byMarket.get(f.marketId) ?? []), f]);
  for (const [marketId, fills] of byMarket) {
    await k.bus.publishMarket(
      marketId,
      fills.map((f) => ({
        event: 'trade' as const,
        marketId,
        trade: {
          id: f.id,
          marketId,
          outcome: f.outcome as 'yes' | 'no',
          priceBps: f.priceBps,
          quantity: f.quantity,
          takerSide: f.takerSide as 'buy' | 'sell',
          fillType: f.fillType,
          status: 'settled',
          matchedAt: f.matchedAt,
          settleTx: f.settleTx,
        },
      })),
    );
  }
}

/** What `settledBalances` needs of the market (its mints, set once at setup): the planner's row spares a read per group. */
export type MarketMints = Pick<ClobMarketRow, 'id' | 'yes_mint' | 'no_mint'>;

/**
 * The smart-wallet accounts of the owners of fills that landed, as the chain holds them now;
 * `known`: their market's row when the caller has it (read here otherwise).
 */
export async function settledBalances(k: KeeperDeps, landed: FillRow[], known?: MarketMints): Promise<TokenAccountRow[]> {
  if (landed.length === 0) return [];
  const marketId = landed[0]!.market_id;
  const market = known?.id === marketId ? known : await findClobMarketById(k.c.db, marketId);
  if (!market?.yes_mint || !market.no_mint) return [];
  return readSmartWalletAccounts(
    k.c,
    { yes: market.yes_mint, no: market.no_mint },
    landed.flatMap((r) => [r.maker_owner, r.taker_owner]),
  );
}

/** A batch whose transaction landed; `signature` null when found settled by a transaction we did not keep. */
export interface LandedBatch {
  batchId: string;
  signature: string | null;
  /** Its outbound row, marked confirmed in the same transaction (the keeper's own first send). */
  outboundId?: string;
  /** Its fills as the keeper just recorded them (read when absent); every write below is guarded by status and batch. */
  rows?: readonly FillRow[];
}

export async function confirmBatch(k: KeeperDeps, batchId: string, signature: string | null): Promise<void> {
  await confirmBatches(k, [{ batchId, signature }]);
}

/**
 * Records batches of one market that landed, in one database transaction (see the module comment);
 * `halted`: batches a pause or resolution stopped, recorded by their receipts the same way;
 * `market`: their market's row when the caller read it already (the planner's, once per job).
 */
export async function confirmBatches(
  k: KeeperDeps,
  batches: readonly LandedBatch[],
  outcome: 'confirmed' | 'halted' = 'confirmed',
  market?: MarketMints,
): Promise<void> {
  // One read for the group (was one per batch, at once: up to 16 queries for a pool of 10 on PostgreSQL),
  // none when the sender passed the rows it recorded.
  const unknown = batches.filter((b) => !b.rows).map((b) => b.batchId);
  const carried = unknown.length > 0 ? await fillsOfBatches(k.c.db, unknown) : new Map<string, FillRow[]>();
  const rowsOf = batches.map((b) => [...(b.rows ?? carried.get(b.batchId) ?? [])]);
  const receipts = await readReceipts(
    k.c,
    rowsOf.flat().map((r) => r.id),
  );
  const landedOf = rowsOf.map((rows) => rows.filter((r) => receipts.has(r.id)));
  // Read after the receipts, so the balances include what the landed fills moved.
  const balances = await settledBalances(k, landedOf.flat(), market);
  const now = new Date().toISOString();
  const { settled, released, ended, recorded } = await k.c.db.transaction().execute(async (trx) => {
    await upsertTokenAccounts(trx, balances); // slot-guarded: never replaces a newer indexed read
    await markOutboundsConfirmed(
      trx,
      batches.flatMap((b) => (b.outboundId ? [b.outboundId] : [])),
      now,
    );
    // Every fill it may write locked in id order, then the landed fills of every batch in one
    // statement (was one per batch), with their receipts' amounts (was a second UPDATE of the same
    // rows); on PostgreSQL the UPDATE takes the locks itself (one round trip for both).
    const settledRows = await settleLockedGroupFills(
      trx,
      batches.map((b, i) => ({ batchId: b.batchId, settleTx: b.signature ?? undefined, fillIds: landedOf[i]!.map((r) => r.id) })),
      now,
      receiptAmounts(receipts),
      rowsOf.flat().map((r) => r.id),
    );
    const settledIds = new Set(settledRows.map((r) => r.id));
    const ended = landedOf.flat().filter((r) => settledIds.has(r.id));
    const released: string[] = [];
    for (const [i, { batchId }] of batches.entries()) {
      const missing = rowsOf[i]!.filter((r) => !receipts.has(r.id)).map((r) => r.id);
      released.push(...(await releaseFills(trx, batchId, missing, null, now, false)));
    }
    // One statement for the group (was one per batch); a batch recorded twice at once counts once.
    const recorded = await setBatchesStatus(
      trx,
      batches.map((b) => b.batchId),
      'settled',
      now,
    );
    // One release for all: its rows are locked in key order, as the matcher locks them (no deadlock).
    await releaseHolds(trx, ended);
    return { settled: settledRows, released, ended, recorded };
  });
  countSettled(k.c.metrics, ended);
  countMoves(k.c.metrics, movedRows(rowsOf.flat(), released), 'matched');
  k.c.metrics.settleTransactions.inc({ outcome }, recorded);
  for (const b of batches) k.proofsInFlight.end(b.batchId);
  if (settled.length > 0)
    k.log.info({ batches: batches.length, fills: settled.length, signatures: batches.map((b) => b.signature) }, 'fills settled');
  // The settled rows as their UPDATE returned them (was a read of them again); fills back in the
  // queue (no receipt: a stopped batch's, or left out of what landed) are announced `fill:matched` again.
  await announceRows(k, settled);
  await announce(k, released);
  await k.afterSettlement(rowsOf.flat()[0]?.market_id, { fillsFailed: false });
}

/** The batch's transaction can never land (its outbound row failed): its fills go back to the queue. */
export async function abandonBatch(k: KeeperDeps, batchId: string, reason: string): Promise<void> {
  const rows = await fillsOfBatch(k.c.db, batchId);
  const now = new Date().toISOString();
  const { released, recorded } = await k.c.db.transaction().execute(async (trx) => {
    await lockFills(
      trx,
      rows.map((r) => r.id),
    );
    const ids = await releaseFills(
      trx,
      batchId,
      rows.map((r) => r.id),
      reason,
      now,
      true,
    );
    return { released: ids, recorded: await setBatchStatus(trx, batchId, 'failed', now) };
  });
  countMoves(k.c.metrics, movedRows(rows, released), 'matched');
  if (recorded) k.c.metrics.settleTransactions.inc({ outcome: 'abandoned' });
  k.proofsInFlight.end(batchId);
  k.log.warn({ batch: batchId, fills: rows.length, reason }, 'settlement batch abandoned; its fills will be batched again');
  await announce(k, released);
  await k.afterSettlement(rows[0]?.market_id, { fillsFailed: false });
}

/** Fails fills that can never settle and are in no batch (e.g. their market resolved first). */
export async function failUnbatched(k: KeeperDeps, rows: FillRow[], reason: string): Promise<void> {
  const now = new Date().toISOString();
  const ended = await k.c.db.transaction().execute(async (trx) => {
    const failed: FillRow[] = [];
    await lockFills(
      trx,
      rows.map((r) => r.id),
    );
    for (const r of rows) if (await failMatchedFill(trx, r.id, 'failed', reason, now)) failed.push(r);
    // One release for all: its rows are locked in key order, as the matcher locks them (no deadlock).
    await releaseHolds(trx, failed);
    return failed.map((r) => r.id);
  });
  countMoves(k.c.metrics, movedRows(rows, ended), 'failed');
  if (ended.length > 0) k.log.warn({ fills: ended.length, reason }, 'fills failed before settlement');
  await announce(k, ended);
}
