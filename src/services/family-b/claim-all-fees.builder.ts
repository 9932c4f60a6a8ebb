/** POST /v2/claim-all-fees: a claim transaction for every market of the creator with fees due. */
import { createAssociatedTokenAccountIdempotentInstruction } from '@solana/spl-token';
import { listChainMarketsByCreator } from '../../../db/repositories/chain-markets.repository.js';
import { associatedTokenAddress, getClaimFeesInstruction } from '@pmx/programs';
import { assembleUnsignedTransaction } from '../../chain/transaction-assembly.js';
import { parseWallet, type FamilyBContext } from './context.js';
import { readMarketFromChain } from './market-reader.js';
import { human } from './views.js';

export async function buildClaimAllFees(ctx: FamilyBContext, p: { wallet: string }) {
  const wallet = parseWallet(p.wallet);
  const recent = await ctx.chain.getLatestBlockhash();
  const usdc = associatedTokenAddress(ctx.usdcMint, wallet);
  const transactions: Array<{ marketId: number; feesAccruedHuman: number; transaction: string }> = [];
  const skipped: Array<{ marketId: number; reason: string }> = [];
  for (const row of await listChainMarketsByCreator(ctx.db, wallet.toBase58())) {
    const market = await readMarketFromChain(ctx, row.marketId);
    if (!market) continue;
    const a = market.account;
    const due = a.creatorFeesAccrued - a.creatorFeesClaimed;
    if (!a.mintsInitialized) {
      skipped.push({ marketId: Number(a.marketId), reason: 'broken_mints' });
      continue;
    }
    if (due === 0n) {
      skipped.push({ marketId: Number(a.marketId), reason: 'no_fees' });
      continue;
    }
    const instructions = [
      createAssociatedTokenAccountIdempotentInstruction(wallet, usdc, wallet, ctx.usdcMint),
      getClaimFeesInstruction({ marketId: a.marketId, creator: wallet, usdcMint: ctx.usdcMint, programId: ctx.programId }),
    ];
    transactions.push({
      marketId: Number(a.marketId),
      feesAccruedHuman: human(due),
      transaction: assembleUnsignedTransaction(wallet, instructions, recent).transaction,
    });
  }
  return {
    data: { transactions, skipped, message: `${transactions.length} fee claim transaction(s) to sign. ${skipped.length} skipped.` },
  };
}
