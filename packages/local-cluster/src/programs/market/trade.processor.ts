/**
 * buy and sell. The trade's numbers come from quoteBuy/quoteSell, the very functions the API
 * quotes with, so a quote followed at once by the trade executes exactly as quoted; `min_out` is
 * checked against the quote's outputAmount.
 */
import { createBurnInstruction, createMintToInstruction, createTransferInstruction } from '@solana/spl-token';
import { BUY_DATA, quoteBuy, quoteSell, SELL_DATA, toMarketState, U64_MAX, withMarketState } from '@pmx/programs';
import { decodeArgs, domain, fail } from './guard.js';
import { loadSideAccounts } from './side-accounts.js';
import { saveMarket } from './state-io.js';
import type { Processor } from './types.js';

export const processBuy: Processor = (ix, ctx, programId) => {
  const args = decodeArgs(() => BUY_DATA.decode(ix.data));
  const s = loadSideAccounts(ix, ctx, programId, args.side);
  const q = domain(() => quoteBuy(toMarketState(s.market), s.side, args.amount));
  if (q.outputAmount < args.minOut) fail('SlippageExceeded', `out ${q.outputAmount} < min ${args.minOut}`);
  ctx.invoke([createTransferInstruction(s.ownerUsdc, s.vault, s.owner, q.inputAmount)]);
  ctx.invoke([createMintToInstruction(s.outcomeMint, s.ownerOutcome, s.marketKey, q.outputAmount)], [s.marketKey]);
  saveMarket(ctx, s.marketKey, {
    ...withMarketState(s.market, q.next),
    totalVolume: saturatingAdd(s.market.totalVolume, q.inputAmount),
  });
  ctx.log(`buy ${s.side} in ${q.inputAmount} out ${q.outputAmount} fee ${q.tradeFee} lp ${q.liquidityFee}`);
};

export const processSell: Processor = (ix, ctx, programId) => {
  const args = decodeArgs(() => SELL_DATA.decode(ix.data));
  const s = loadSideAccounts(ix, ctx, programId, args.side);
  const q = domain(() => quoteSell(toMarketState(s.market), s.side, args.amount));
  if (q.outputAmount < args.minOut) fail('SlippageExceeded', `out ${q.outputAmount} < min ${args.minOut}`);
  ctx.invoke([createBurnInstruction(s.ownerOutcome, s.outcomeMint, s.owner, q.inputAmount)]);
  ctx.invoke([createTransferInstruction(s.vault, s.ownerUsdc, s.marketKey, q.outputAmount)], [s.marketKey]);
  saveMarket(ctx, s.marketKey, {
    ...withMarketState(s.market, q.next),
    totalVolume: saturatingAdd(s.market.totalVolume, q.effectiveAmount),
  });
  ctx.log(`sell ${s.side} in ${q.inputAmount} out ${q.outputAmount} fee ${q.tradeFee} lp ${q.liquidityFee}`);
};

/** Volume saturates rather than failing a trade: it is a statistic, not money. */
function saturatingAdd(a: bigint, b: bigint): bigint {
  return a + b > U64_MAX ? U64_MAX : a + b;
}
