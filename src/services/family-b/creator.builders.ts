/**
 * The creator's transactions: resolve, claim-fees and cancel. Each checks what the program would
 * check first, so refusals are clear API errors instead of failed transactions, and repeats are
 * the idempotent variants of the spec (`alreadyResolved`, `noFees`).
 */
import { createAssociatedTokenAccountIdempotentInstruction } from '@solana/spl-token';
import type { PublicKey, TransactionInstruction } from '@solana/web3.js';
import {
  associatedTokenAddress,
  cancelAllowed,
  getCancelMarketInstruction,
  getClaimFeesInstruction,
  getResolveInstruction,
  type OutcomeSide,
  toMarketState,
} from '@pmx/programs';
import { assembleUnsignedTransaction } from '../../chain/transaction-assembly.js';
import { DomainError } from '../../domain/errors.js';
import { clusterUnixTime } from './chain-time.js';
import { parseMarketId, parseWallet, type FamilyBContext } from './context.js';
import { notCreator } from './errors.js';
import { requireMarketFromChain, type LoadedMarket } from './market-reader.js';
import { sideOf } from './trade.builders.js';
import { human } from './views.js';

async function creatorMarket(
  ctx: FamilyBContext,
  p: { marketId: string; wallet: string },
): Promise<{ wallet: PublicKey; market: LoadedMarket }> {
  const wallet = parseWallet(p.wallet);
  const market = await requireMarketFromChain(ctx, parseMarketId(p.marketId));
  if (!market.account.creator.equals(wallet)) throw notCreator(market.account.creator.toBase58(), wallet.toBase58());
  return { wallet, market };
}

async function transaction(ctx: FamilyBContext, wallet: PublicKey, instruction: TransactionInstruction) {
  const usdc = associatedTokenAddress(ctx.usdcMint, wallet);
  const createUsdc = createAssociatedTokenAccountIdempotentInstruction(wallet, usdc, wallet, ctx.usdcMint);
  return assembleUnsignedTransaction(wallet, [createUsdc, instruction], await ctx.chain.getLatestBlockhash());
}

export async function buildResolve(ctx: FamilyBContext, p: { marketId: string; wallet: string; winningSide: string }) {
  const { wallet, market } = await creatorMarket(ctx, p);
  const a = market.account;
  const winningSide: OutcomeSide = sideOf(market, p.winningSide);
  if (a.status === 'resolved') {
    return { flags: { alreadyResolved: true, winningSide: a.winningSide, note: `Market ${a.marketId} is already resolved` } };
  }
  if (a.status !== 'active') throw new DomainError('conflict', 'MarketNotActive', `Market is ${a.status}`, { marketStatus: a.status });
  const now = await clusterUnixTime(ctx.chain);
  if (now < a.resolutionTime) {
    throw new DomainError(
      'invalid',
      'ResolutionTooEarly',
      `ResolutionTooEarly: the market cannot be resolved before ${new Date(Number(a.resolutionTime) * 1000).toISOString()}`,
      {
        resolutionTime: Number(a.resolutionTime),
      },
    );
  }
  if (a.yesSupply === 0n || a.noSupply === 0n) {
    throw new DomainError(
      'invalid',
      'NoOpposition',
      'NoOpposition: both sides need holders before the market can be resolved; cancel it instead (POST /v2/markets/{id}/cancel)',
    );
  }
  const instruction = getResolveInstruction({
    marketId: a.marketId,
    creator: wallet,
    usdcMint: ctx.usdcMint,
    winningSide,
    programId: ctx.programId,
  });
  const tx = await transaction(ctx, wallet, instruction);
  return {
    data: {
      transaction: tx.transaction,
      marketId: Number(a.marketId),
      winningSide,
      message: `Sign and submit to resolve market ${a.marketId} as ${winningSide}.`,
    },
  };
}

export async function buildClaimFees(ctx: FamilyBContext, p: { marketId: string; wallet: string }) {
  const { wallet, market } = await creatorMarket(ctx, p);
  const a = market.account;
  const due = a.creatorFeesAccrued - a.creatorFeesClaimed;
  if (due === 0n) return { flags: { noFees: true, note: `No creator fees are due on market ${a.marketId}` } };
  const instruction = getClaimFeesInstruction({ marketId: a.marketId, creator: wallet, usdcMint: ctx.usdcMint, programId: ctx.programId });
  const tx = await transaction(ctx, wallet, instruction);
  return {
    data: {
      transaction: tx.transaction,
      marketId: Number(a.marketId),
      feesAccrued: Number(due),
      feesAccruedHuman: human(due),
      message: `Sign and submit to claim ${human(due)} USDC of creator fees.`,
    },
  };
}

export async function buildCancel(ctx: FamilyBContext, p: { marketId: string; wallet: string }) {
  const { wallet, market } = await creatorMarket(ctx, p);
  const a = market.account;
  if (a.status === 'cancelled') return { flags: { alreadyCancelled: true, note: `Market ${a.marketId} is already cancelled` } };
  const now = await clusterUnixTime(ctx.chain);
  if (!cancelAllowed(toMarketState(a), { mintsInitialized: a.mintsInitialized, now, resolutionTime: a.resolutionTime })) {
    throw new DomainError(
      'invalid',
      'CannotCancel',
      'CannotCancel: only a market that can never resolve may be cancelled (mints never initialised, or past resolution time with one side unheld)',
    );
  }
  const instruction = getCancelMarketInstruction({
    marketId: a.marketId,
    creator: wallet,
    usdcMint: ctx.usdcMint,
    programId: ctx.programId,
  });
  const tx = await transaction(ctx, wallet, instruction);
  return {
    data: { transaction: tx.transaction, marketId: Number(a.marketId), message: `Sign and submit to cancel market ${a.marketId}.` },
  };
}
