/**
 * Redemption: POST /v2/markets/{id}/redeem for one side, POST /v2/redeem-all for every resolved
 * or cancelled market where the wallet holds tokens worth something. Which markets to look at
 * comes from the index (by owner, bounded); balances and market states are then read live, account
 * by account, so an already-redeemed position is never offered again and no call scans the ledger.
 * The program burns the whole balance of the side in the owner's associated account; tokens the
 * wallet holds in other token accounts are moved there in the same transaction first.
 */
import { createAssociatedTokenAccountIdempotentInstruction } from '@solana/spl-token';
import type { PublicKey } from '@solana/web3.js';
import { listChainMarketsByMints } from '../../../db/repositories/chain-markets.repository.js';
import { balancesByOwner } from '../../../db/repositories/token-accounts.repository.js';
import { associatedTokenAddress, getRedeemInstruction, type OutcomeSide } from '@pmx/programs';
import { assembleUnsignedTransaction } from '../../chain/transaction-assembly.js';
import type { BlockhashWithExpiry } from '../../chain/chain-client.js';
import { DomainError } from '../../domain/errors.js';
import { parseMarketId, parseWallet, type FamilyBContext } from './context.js';
import { readMarketFromChain, requireMarketFromChain, type LoadedMarket } from './market-reader.js';
import { consolidateInstructions, holdingOf, type Holding } from './holdings.js';
import { sideOf } from './trade.builders.js';

/** Markets one redeem-all call looks at (the wallet's indexed holdings); the rest on the next call. */
export const REDEEM_ALL_MAX_MARKETS = 50;

function redeemTransaction(
  ctx: FamilyBContext,
  wallet: PublicKey,
  market: LoadedMarket,
  side: OutcomeSide,
  holding: Holding,
  recent: BlockhashWithExpiry,
): string {
  const usdc = associatedTokenAddress(ctx.usdcMint, wallet);
  const instructions = [
    createAssociatedTokenAccountIdempotentInstruction(wallet, usdc, wallet, ctx.usdcMint),
    ...consolidateInstructions(holding, wallet),
    getRedeemInstruction({ marketId: market.account.marketId, side, owner: wallet, usdcMint: ctx.usdcMint, programId: ctx.programId }),
  ];
  return assembleUnsignedTransaction(wallet, instructions, recent).transaction;
}

/** Why a held side cannot be redeemed now, or null when it can. */
function skipReason(market: LoadedMarket, side: OutcomeSide): string | null {
  const a = market.account;
  if (!a.mintsInitialized) return 'broken_mints';
  if (a.status === 'active') return 'status_active';
  if (a.status === 'resolved' && a.winningSide !== side) return `${side}_is_losing_side`;
  return null;
}

export async function buildRedeem(ctx: FamilyBContext, p: { marketId: string; wallet: string; side: string }) {
  const wallet = parseWallet(p.wallet);
  const market = await requireMarketFromChain(ctx, parseMarketId(p.marketId));
  const side = sideOf(market, p.side);
  const id = Number(market.account.marketId);
  if (market.account.status === 'active') {
    throw new DomainError(
      'invalid',
      'MarketNotResolved',
      `Market ${id} is not resolved yet; redemption opens once it is resolved or cancelled`,
      { marketStatus: 'active' },
    );
  }
  const holding = await holdingOf(ctx, wallet, side === 'YES' ? market.yesMint : market.noMint);
  const balance = holding.total;
  if (balance === 0n) return { flags: { alreadyRedeemed: true, note: `Wallet holds no ${side} tokens of market ${id}` } };
  const reason = skipReason(market, side);
  if (reason)
    throw new DomainError('invalid', reason, `${side} tokens of market ${id} cannot be redeemed: ${reason}`, {
      marketStatus: market.account.status,
    });
  const transaction = redeemTransaction(ctx, wallet, market, side, holding, await ctx.chain.getLatestBlockhash());
  return {
    data: {
      transaction,
      marketId: id,
      side,
      tokenAmount: Number(balance),
      message: `Sign and submit to redeem ${balance} ${side} tokens of market ${id}.`,
    },
  };
}

export async function buildRedeemAll(ctx: FamilyBContext, p: { wallet: string }) {
  const wallet = parseWallet(p.wallet);
  const held = await balancesByOwner(ctx.db, wallet.toBase58());
  const indexed = (await listChainMarketsByMints(ctx.db, [...held.keys()])).slice(0, REDEEM_ALL_MAX_MARKETS);
  const recent = await ctx.chain.getLatestBlockhash();
  const transactions: Array<{ marketId: number; side: OutcomeSide; transaction: string }> = [];
  const skipped: Array<{ marketId: number; reason: string }> = [];
  for (const row of indexed) {
    const market = await readMarketFromChain(ctx, row.marketId);
    if (!market) continue;
    const id = Number(row.marketId);
    for (const side of ['YES', 'NO'] as OutcomeSide[]) {
      const mint = side === 'YES' ? market.yesMint : market.noMint;
      if (!held.has(mint.toBase58())) continue;
      const reason = skipReason(market, side);
      if (reason) {
        skipped.push({ marketId: id, reason });
        continue;
      }
      const holding = await holdingOf(ctx, wallet, mint);
      if (holding.total === 0n) continue; // redeemed since the index last saw it
      transactions.push({ marketId: id, side, transaction: redeemTransaction(ctx, wallet, market, side, holding, recent) });
    }
  }
  return {
    data: { transactions, skipped, message: `${transactions.length} redemption transaction(s) to sign. ${skipped.length} skipped.` },
  };
}
