/**
 * Redemption: POST /v2/markets/{id}/redeem for one side, POST /v2/redeem-all for every resolved
 * or cancelled market where the wallet holds tokens worth something. Balances and market states
 * are read live from the chain (not the index) so an already-redeemed position is never offered
 * again. The program burns the whole balance of the side in the owner's associated account.
 */
import { createAssociatedTokenAccountIdempotentInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import type { PublicKey } from '@solana/web3.js';
import { listChainMarketsByMints } from '../../../db/repositories/chain-markets.repository.js';
import { getRedeemInstruction } from '../../chain/programs/market/index.js';
import { assembleUnsignedTransaction } from '../../chain/transaction-assembly.js';
import type { BlockhashWithExpiry } from '../../chain/chain-client.js';
import type { Side } from '../../domain/amm/index.js';
import { DomainError } from '../../domain/errors.js';
import { parseMarketId, parseWallet, type FamilyBContext } from './context.js';
import { readMarketFromChain, requireMarketFromChain, type LoadedMarket } from './market-reader.js';
import { ataBalance } from './token-balances.js';
import { sideOf } from './trade.builders.js';

function redeemTransaction(ctx: FamilyBContext, wallet: PublicKey, market: LoadedMarket, side: Side, recent: BlockhashWithExpiry): string {
  const usdc = getAssociatedTokenAddressSync(ctx.usdcMint, wallet, true);
  const instructions = [
    createAssociatedTokenAccountIdempotentInstruction(wallet, usdc, wallet, ctx.usdcMint),
    getRedeemInstruction({ marketId: market.account.marketId, side, owner: wallet, usdcMint: ctx.usdcMint, programId: ctx.programId }),
  ];
  return assembleUnsignedTransaction(wallet, instructions, recent).transaction;
}

/** Why a held side cannot be redeemed now, or null when it can. */
function skipReason(market: LoadedMarket, side: Side): string | null {
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
    throw new DomainError('invalid', 'MarketNotResolved', `Market ${id} is not resolved yet; redemption opens once it is resolved or cancelled`, { marketStatus: 'active' });
  }
  const balance = await ataBalance(ctx.chain, side === 'YES' ? market.yesMint : market.noMint, wallet);
  if (balance === 0n) return { flags: { alreadyRedeemed: true, note: `Wallet holds no ${side} tokens of market ${id}` } };
  const reason = skipReason(market, side);
  if (reason) throw new DomainError('invalid', reason, `${side} tokens of market ${id} cannot be redeemed: ${reason}`, { marketStatus: market.account.status });
  const transaction = redeemTransaction(ctx, wallet, market, side, await ctx.chain.getLatestBlockhash());
  return { data: { transaction, marketId: id, side, tokenAmount: Number(balance), message: `Sign and submit to redeem ${balance} ${side} tokens of market ${id}.` } };
}

export async function buildRedeemAll(ctx: FamilyBContext, p: { wallet: string }) {
  const wallet = parseWallet(p.wallet);
  const held = new Map<string, bigint>();
  for (const t of await ctx.chain.getTokenAccountsByOwner(wallet.toBase58())) {
    if (t.amount > 0n) held.set(t.mint, (held.get(t.mint) ?? 0n) + t.amount);
  }
  const indexed = await listChainMarketsByMints(ctx.db, [...held.keys()]);
  const recent = await ctx.chain.getLatestBlockhash();
  const transactions: Array<{ marketId: number; side: Side; transaction: string }> = [];
  const skipped: Array<{ marketId: number; reason: string }> = [];
  for (const row of indexed) {
    const market = await readMarketFromChain(ctx, row.marketId);
    if (!market) continue;
    const id = Number(row.marketId);
    for (const side of ['YES', 'NO'] as Side[]) {
      const mint = (side === 'YES' ? market.yesMint : market.noMint).toBase58();
      if (!held.has(mint)) continue;
      const reason = skipReason(market, side);
      if (reason) skipped.push({ marketId: id, reason });
      else transactions.push({ marketId: id, side, transaction: redeemTransaction(ctx, wallet, market, side, recent) });
    }
  }
  return {
    data: { transactions, skipped, message: `${transactions.length} redemption transaction(s) to sign. ${skipped.length} skipped.` },
  };
}
