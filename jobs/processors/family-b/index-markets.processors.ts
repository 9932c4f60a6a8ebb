/**
 * Family B's index processors. All are idempotent: rows are upserts guarded by slot, so a
 * retried or duplicated job leaves the same state.
 */
import type { FamilyBContext } from '../../../src/services/family-b/context.js';
import { applyTokenAccount, fullIndexPass, refreshMarket } from '../../../src/services/family-b/market-index.service.js';
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

/** A token-account notification: re-read and apply (see applyTokenAccount for why re-read). */
export function tokenAccountApplyProcessor(ctx: FamilyBContext): Processor<'index.token-account.apply'> {
  return async (p) => applyTokenAccount(ctx, p.address);
}
