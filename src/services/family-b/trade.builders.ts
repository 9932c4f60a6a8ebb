/**
 * POST /v2/markets/{id}/buy and /sell. The quote is computed with the program's own functions on
 * the market as the chain holds it now, and its output becomes the transaction's minimum out
 * (less the caller's optional slippage), so the signed transaction can never execute at a worse
 * price than quoted: it either gives the quoted amount (or more) or fails with SlippageExceeded.
 */
import { createAssociatedTokenAccountIdempotentInstruction } from '@solana/spl-token';
import type { PublicKey } from '@solana/web3.js';
import {
  associatedTokenAddress,
  getBuyInstruction,
  getSellInstruction,
  mulDivFloor,
  parseOutcomeSide,
  quoteTrade,
  toMarketState,
  type TradeAction,
  type TradeQuote,
} from '@pmx/programs';
import { assembleUnsignedTransaction } from '../../chain/transaction-assembly.js';

import { DomainError } from '../../domain/errors.js';
import { parseAmount, parseMarketId, parseWallet, type FamilyBContext } from './context.js';
import { fromAmmError, notActive } from './errors.js';
import { requireMarketFromChain, type LoadedMarket } from './market-reader.js';
import { ataBalance } from './token-balances.js';
import { fullQuoteView, quoteView } from './views.js';

export interface TradeParams {
  marketId: string;
  wallet: string;
  side: string;
  amount: string;
  /** Tolerated shortfall below the quote, in bps (default 0: exactly the quote or better). */
  slippageBps?: number;
}

export function sideOf(market: LoadedMarket, input: string) {
  const side = parseOutcomeSide(input, market.account);
  if (!side) {
    throw new DomainError('invalid', 'INVALID_SIDE', `side must be YES, NO, ${market.account.yesTicker} or ${market.account.noTicker}`, {
      yesTicker: market.account.yesTicker,
      noTicker: market.account.noTicker,
    });
  }
  return side;
}

export function quoteOn(market: LoadedMarket, action: TradeAction, sideInput: string, amount: bigint): TradeQuote {
  const side = sideOf(market, sideInput);
  const state = toMarketState(market.account);
  if (!market.account.mintsInitialized) {
    throw new DomainError('invalid', 'MintsNotInitialized', 'The market mints are not initialised (POST /v2/markets/{id}/init-mints)', {
      isBroken: true,
    });
  }
  try {
    return quoteTrade(state, action, side, amount);
  } catch (error) {
    return fromAmmError(error, state);
  }
}

export async function quoteMarket(ctx: FamilyBContext, p: { marketId: string; side: string; amount: string; action: TradeAction }) {
  const marketId = parseMarketId(p.marketId);
  const market = await requireMarketFromChain(ctx, marketId);
  return fullQuoteView(quoteOn(market, p.action, p.side, parseAmount(p.amount, 'amount')), marketId);
}

async function buildTrade(ctx: FamilyBContext, action: TradeAction, p: TradeParams) {
  const wallet = parseWallet(p.wallet);
  const marketId = parseMarketId(p.marketId);
  const market = await requireMarketFromChain(ctx, marketId);
  if (market.account.status !== 'active') throw notActive(market.account);
  const quote = quoteOn(market, action, p.side, parseAmount(p.amount, 'amount'));
  const slippage = BigInt(p.slippageBps ?? 0);
  const minOut = quote.outputAmount - mulDivFloor(quote.outputAmount, slippage, 10_000n);
  const outcomeMint = quote.side === 'YES' ? market.yesMint : market.noMint;
  await assertCanPay(ctx, action, wallet, action === 'buy' ? ctx.usdcMint : outcomeMint, quote);
  const accounts = {
    marketId,
    side: quote.side,
    owner: wallet,
    usdcMint: ctx.usdcMint,
    programId: ctx.programId,
    amount: quote.inputAmount,
    minOut,
  };
  const instructions =
    action === 'buy'
      ? [
          createAssociatedTokenAccountIdempotentInstruction(wallet, associatedTokenAddress(outcomeMint, wallet), wallet, outcomeMint),
          getBuyInstruction(accounts),
        ]
      : [
          createAssociatedTokenAccountIdempotentInstruction(wallet, associatedTokenAddress(ctx.usdcMint, wallet), wallet, ctx.usdcMint),
          getSellInstruction(accounts),
        ];
  const tx = assembleUnsignedTransaction(wallet, instructions, await ctx.chain.getLatestBlockhash());
  return {
    data: {
      transaction: tx.transaction,
      quote: quoteView(quote),
      minOutputAmount: Number(minOut),
      marketId: Number(marketId),
      lastValidBlockHeight: tx.lastValidBlockHeight,
    },
  };
}

/**
 * A transaction that can only fail is no answer: the program pays from the wallet's associated
 * account, so a buy needs that much USDC there and a sell that many tokens (as the chain holds
 * them now; a transfer landing meanwhile can still change it).
 */
async function assertCanPay(
  ctx: FamilyBContext,
  action: TradeAction,
  wallet: PublicKey,
  mint: PublicKey,
  quote: TradeQuote,
): Promise<void> {
  const balance = await ataBalance(ctx.chain, mint, wallet);
  if (balance >= quote.inputAmount) return;
  const what = action === 'buy' ? 'USDC' : `${quote.side} tokens`;
  throw new DomainError(
    'invalid',
    'INSUFFICIENT_BALANCE',
    `The wallet holds ${balance} raw ${what} in its associated account; this ${action} needs ${quote.inputAmount}`,
    {
      balance: Number(balance),
      required: Number(quote.inputAmount),
    },
  );
}

export const buildBuy = (ctx: FamilyBContext, p: TradeParams) => buildTrade(ctx, 'buy', p);
export const buildSell = (ctx: FamilyBContext, p: TradeParams) => buildTrade(ctx, 'sell', p);
