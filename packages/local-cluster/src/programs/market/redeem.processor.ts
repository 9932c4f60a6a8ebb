/**
 * redeem(side): burns the owner's whole balance of that side and pays its value from the vault
 * (1:1 for AMM winners, pro rata in Pool mode or after cancellation, 0 for losing tokens).
 */
import { createBurnInstruction, createTransferInstruction } from '@solana/spl-token';
import { REDEEM_DATA, redeemPayout, toMarketState, withMarketState } from '@pmx/programs';
import { decodeArgs, domain, fail } from './guard.js';
import { loadSideAccounts } from './side-accounts.js';
import { saveMarket } from './state-io.js';
import type { Processor } from './types.js';

export const processRedeem: Processor = (ix, ctx, programId) => {
  const { side } = decodeArgs(() => REDEEM_DATA.decode(ix.data));
  const s = loadSideAccounts(ix, ctx, programId, side);
  if (s.market.status === 'active') fail('MarketNotResolved');
  if (!s.outcomeAccount.owner.equals(s.owner)) fail('InvalidAccount', 'redeem burns the signer’s own tokens');
  const tokens = s.outcomeAccount.amount;
  if (tokens === 0n) fail('NothingToRedeem');
  const r = domain(() => redeemPayout(toMarketState(s.market), s.side, tokens));
  ctx.invoke([createBurnInstruction(s.ownerOutcome, s.outcomeMint, s.owner, tokens)]);
  if (r.payout > 0n) {
    ctx.invoke([createTransferInstruction(s.vault, s.ownerUsdc, s.marketKey, r.payout)], [s.marketKey]);
  }
  saveMarket(ctx, s.marketKey, withMarketState(s.market, r.next));
  ctx.log(`redeem ${s.side} burned ${tokens} paid ${r.payout}`);
};
