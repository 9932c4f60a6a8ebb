/**
 * Family B's index processors. All are idempotent: rows are upserts guarded by slot, so a
 * retried or duplicated job leaves the same state.
 */
import { deleteClosedTokenAccount, upsertTokenAccounts } from '../../../db/repositories/token-accounts.repository.js';
import type { FamilyBContext } from '../../../src/services/family-b/context.js';
import { decodeTokenAccount, fullIndexPass, refreshMarket } from '../../../src/services/family-b/market-index.service.js';
import type { Processor } from '../../processor.js';

export function indexMarketsFullProcessor(ctx: FamilyBContext): Processor<'index.markets.full'> {
  return async ({ reason }, job, log) => {
    const started = performance.now();
    const result = await fullIndexPass(ctx, async (done, total) => {
      await job.updateProgress(Math.round((done / total) * 100));
    });
    log.info({ reason, ...result, ms: Math.round(performance.now() - started) }, 'full index pass done');
    return result;
  };
}

export function indexMarketRefreshProcessor(ctx: FamilyBContext): Processor<'index.market.refresh'> {
  return async ({ marketId }) => (await refreshMarket(ctx, BigInt(marketId))) ?? { missing: true };
}

/**
 * Applies a token-account notification by re-reading the account: several changes can land in
 * one slot, and notifications of one slot carry no order, so the notified amount may already be
 * stale; what the chain holds now (at the read's slot) is never older than any notification.
 */
export function tokenAccountApplyProcessor(ctx: FamilyBContext): Processor<'index.token-account.apply'> {
  return async (p) => {
    const snapshot = await ctx.chain.getAccount(p.address);
    const row = snapshot ? decodeTokenAccount(snapshot) : null;
    if (!row) {
      await deleteClosedTokenAccount(ctx.db, p.address, BigInt(snapshot?.slot ?? (await ctx.chain.getSlot())));
      return { applied: true, closed: true };
    }
    await upsertTokenAccounts(ctx.db, [row]);
    return { applied: true, slot: Number(row.slot) };
  };
}
