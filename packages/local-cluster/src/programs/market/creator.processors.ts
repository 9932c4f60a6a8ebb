/** resolve(winning_side), claim_fees() and cancel_market(): the creator's instructions. */
import { cancelMarket, claimCreatorFees, RESOLVE_DATA, resolveMarket, toMarketState, withMarketState } from '@pmx/programs';
import { loadCreatorAccounts } from './creator-accounts.js';
import { decodeArgs, domain, fail } from './guard.js';
import { saveMarket } from './state-io.js';
import type { Processor } from './types.js';

/** Resolution: creator only, active, not before resolution_time, both sides held; AMM surplus → creator. */
export const processResolve: Processor = (ix, ctx, programId) => {
  const { winningSide } = decodeArgs(() => RESOLVE_DATA.decode(ix.data));
  const c = loadCreatorAccounts(ix, ctx, programId);
  if (winningSide === null) fail('InvalidSide');
  if (c.market.status !== 'active') fail('MarketNotActive', `market is ${c.market.status}`);
  if (ctx.unixTimestamp < c.market.resolutionTime) {
    fail('ResolutionTooEarly', `now ${ctx.unixTimestamp} < ${c.market.resolutionTime}`);
  }
  const r = domain(() => resolveMarket(toMarketState(c.market), winningSide));
  c.payCreator(r.creatorSurplus);
  saveMarket(ctx, c.marketKey, { ...withMarketState(c.market, r.next), resolvedAt: ctx.unixTimestamp });
  ctx.log(`market ${c.market.marketId} resolved ${winningSide}, surplus ${r.creatorSurplus}`);
};

export const processClaimFees: Processor = (ix, ctx, programId) => {
  const c = loadCreatorAccounts(ix, ctx, programId);
  const r = claimCreatorFees(toMarketState(c.market));
  if (r.amount === 0n) fail('NoFeesToClaim');
  c.payCreator(r.amount);
  saveMarket(ctx, c.marketKey, withMarketState(c.market, r.next));
  ctx.log(`creator fees claimed ${r.amount}`);
};

/** Cancellation when the market can never resolve (payout.ts cancelAllowed); refunds the creator's reserve share. */
export const processCancelMarket: Processor = (ix, ctx, programId) => {
  const c = loadCreatorAccounts(ix, ctx, programId);
  const r = domain(() =>
    cancelMarket(toMarketState(c.market), {
      mintsInitialized: c.market.mintsInitialized,
      now: ctx.unixTimestamp,
      resolutionTime: c.market.resolutionTime,
    }),
  );
  c.payCreator(r.creatorRefund);
  saveMarket(ctx, c.marketKey, { ...withMarketState(c.market, r.next), resolvedAt: ctx.unixTimestamp });
  ctx.log(`market ${c.market.marketId} cancelled, creator refund ${r.creatorRefund}`);
};
