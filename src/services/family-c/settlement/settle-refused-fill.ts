/**
 * A fill the chain refused inside a settlement batch (its refusal log names it), in one database
 * transaction with its holds: `failed_insufficient_balance` (and the owner's resting orders are
 * cancelled everywhere, the innocent party's order given the quantity back), `settled` for a
 * receipt that exists already, else `failed` with the error; the batch's other fills go back to
 * `matched`. Row locks in the daemon's one order (db/row-locks.ts), as settle-outcomes.ts.
 */
import type { SettleRefusal } from '@pmx/programs';
import { markGiveBacks, type FillRow } from '../../../../db/repositories/clob-fills.repository.js';
import { endFills, fillsOfBatch, releaseFills, setBatchStatus } from '../../../../db/repositories/clob-settlement.repository.js';
import { upsertTokenAccounts } from '../../../../db/repositories/token-accounts.repository.js';
import { lockFills } from '../../../../db/row-locks.js';
import type { ClobFillStatus } from '../../../../db/schema.js';
import type { KeeperDeps } from './keeper.deps.js';
import { announce, releaseHolds, settledBalances } from './settle-outcomes.js';
import { countMoves, countSettled, movedRows } from './settle-metrics.js';

/**
 * The innocent party of a fill its counterparty could not pay gets the quantity back on its order
 * if that still rests (the market's matcher applies it: matcher/catch-up.ts). The party the
 * chain named is the one that could not pay; without a name, nobody is given anything.
 */
function giveBacksFor(rows: FillRow[], refusal: SettleRefusal): Array<{ fillId: string; orderId: string }> {
  if (refusal.party !== 'maker' && refusal.party !== 'taker') return [];
  return rows.map((r) => ({ fillId: r.id, orderId: refusal.party === 'maker' ? r.taker_order_id : r.maker_order_id }));
}

export async function refuseFill(k: KeeperDeps, batchId: string, refusal: SettleRefusal): Promise<void> {
  const rows = await fillsOfBatch(k.c.db, batchId);
  const refused = rows.filter((r) => refusal.fillIds.includes(r.id));
  const status: ClobFillStatus =
    refusal.error === 'FillAlreadySettled' ? 'settled' : refusal.error === 'InsufficientBalance' ? 'failed_insufficient_balance' : 'failed';
  const reason = `${refusal.error}: ${refusal.detail}${refusal.party ? ` (${refusal.party} ${refusal.owner ?? ''})` : ''}`;
  // A receipt that exists already: the fill moved money, so its owners' balances go in with its release (see confirmBatch).
  const balances = status === 'settled' ? await settledBalances(k, refused) : [];
  const now = new Date().toISOString();
  const ended = await k.c.db.transaction().execute(async (trx) => {
    await upsertTokenAccounts(trx, balances);
    await lockFills(
      trx,
      rows.map((r) => r.id),
    );
    const ids = await endFills(
      trx,
      batchId,
      refused.map((r) => r.id),
      { status, failureReason: status === 'settled' ? undefined : reason, now },
    );
    await releaseHolds(
      trx,
      refused.filter((r) => ids.includes(r.id)),
    );
    if (status === 'failed_insufficient_balance')
      await markGiveBacks(
        trx,
        giveBacksFor(
          refused.filter((r) => ids.includes(r.id)),
          refusal,
        ),
      );
    const released = await releaseFills(
      trx,
      batchId,
      rows.filter((r) => !refusal.fillIds.includes(r.id)).map((r) => r.id),
      null,
      now,
      false,
    );
    const recorded = await setBatchStatus(trx, batchId, 'failed', now);
    return { ids, released, recorded };
  });
  const refusedMoved = movedRows(refused, ended.ids);
  if (status === 'settled') countSettled(k.c.metrics, refusedMoved);
  else countMoves(k.c.metrics, refusedMoved, status);
  countMoves(k.c.metrics, movedRows(rows, ended.released), 'matched');
  if (ended.recorded) k.c.metrics.settleTransactions.inc({ outcome: 'refused' });
  k.proofsInFlight.end(batchId);
  k.log.warn(
    { batch: batchId, fills: ended.ids, error: refusal.error, party: refusal.party, owner: refusal.owner },
    'fill refused by the chain',
  );
  if (status === 'failed_insufficient_balance' && refusal.owner) await k.cancelOwnerEverywhere(refusal.owner);
  await announce(k, [...ended.ids, ...ended.released]);
  await k.afterSettlement(rows[0]?.market_id, { fillsFailed: status !== 'settled' });
}
