/**
 * The smart-wallet transactions (Family C account endpoints): unsigned v0 transactions whose fee
 * payer and only signer is the owner. Each builder checks what it can before the owner pays a fee
 * for a transaction that can only fail: the wallet's USDC for a deposit, `withdrawable` for a
 * withdrawal and a split, free tokens for a merge, the winning side for a redemption.
 */
import { createAssociatedTokenAccountIdempotentInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import type { PublicKey, TransactionInstruction } from '@solana/web3.js';
import type { Static } from 'typebox';
import { rememberClobWallet } from '../../../db/repositories/clob-wallets.repository.js';
import {
  getClobRedeemInstruction,
  getDepositInstruction,
  getMergeInstruction,
  getSplitInstruction,
  getWithdrawInstruction,
} from '@pmx/programs';
import { assembleUnsignedV0Transaction } from '../../chain/transaction-assembly.js';
import { DomainError } from '../../domain/errors.js';
import { rawToHuman } from '../../domain/family-a/money.js';
import { ataBalance } from '../family-b/token-balances.js';
import { parseOwnerPubkey, parsePubkey, parseRawAmount, type FamilyCContext } from './context.js';
import { requireClobMarket } from './market-catalog.service.js';
import { readSmartWallet, smartWalletAddresses } from './smart-wallet.service.js';
import type { familyCTxParams } from './wallet.tx-params.js';

/** The parameters as their schemas describe them (wallet.tx-params.ts): a drift fails to compile here. */
export type WalletAmountParams = Static<(typeof familyCTxParams)['clob.deposit']>;
export type MarketAmountParams = Static<(typeof familyCTxParams)['clob.split']>;

const usdc = (raw: bigint) => `${rawToHuman(raw)} USDC`;

async function unsigned(ctx: FamilyCContext, owner: PublicKey, instructions: TransactionInstruction[]) {
  const recent = await ctx.chain.getLatestBlockhash();
  return assembleUnsignedV0Transaction(owner, instructions, recent);
}

export async function buildDeposit(ctx: FamilyCContext, p: WalletAmountParams) {
  const owner = parseOwnerPubkey(p.pubkey);
  const amount = parseRawAmount(p.amount);
  const balance = await ataBalance(ctx.chain, ctx.usdcMint, owner);
  if (balance < amount) {
    throw new DomainError('invalid', 'INSUFFICIENT_BALANCE', `Deposit of ${amount} exceeds the wallet's USDC balance of ${balance}`, {
      balance: balance.toString(),
      required: amount.toString(),
    });
  }
  const addresses = smartWalletAddresses(ctx, owner);
  await rememberClobWallet(
    ctx.db,
    { owner: owner.toBase58(), escrow: addresses.escrow.toBase58(), escrowUsdc: addresses.escrowUsdc.toBase58() },
    new Date().toISOString(),
  );
  const tx = await unsigned(ctx, owner, [getDepositInstruction({ owner, usdcMint: ctx.usdcMint, amount, programId: ctx.programId })]);
  return {
    ...tx,
    smartWallet: addresses.escrow.toBase58(),
    message: `Sign and submit to deposit ${usdc(amount)} into your smart wallet ${addresses.escrow.toBase58()}.`,
  };
}

export function insufficientWithdrawable(requested: bigint, available: bigint): DomainError {
  return new DomainError(
    'invalid',
    'INSUFFICIENT_WITHDRAWABLE',
    `Requested withdrawal of ${requested} exceeds withdrawable balance of ${available}. Cancel open orders to free committed collateral.`,
    { requested: requested.toString(), withdrawable: available.toString() },
  );
}

export async function buildWithdraw(ctx: FamilyCContext, p: WalletAmountParams) {
  const owner = parsePubkey(p.pubkey);
  const amount = parseRawAmount(p.amount);
  const wallet = await readSmartWallet(ctx, owner);
  if (amount > wallet.withdrawable) throw insufficientWithdrawable(amount, wallet.withdrawable);
  const ownerUsdc = getAssociatedTokenAddressSync(ctx.usdcMint, owner, true);
  const tx = await unsigned(ctx, owner, [
    createAssociatedTokenAccountIdempotentInstruction(owner, ownerUsdc, owner, ctx.usdcMint),
    getWithdrawInstruction({ owner, usdcMint: ctx.usdcMint, amount, programId: ctx.programId }),
  ]);
  return { ...tx, message: `Sign and submit to withdraw ${usdc(amount)} from your smart wallet to ${ownerUsdc.toBase58()}.` };
}

async function activeMarket(ctx: FamilyCContext, marketId: string) {
  const market = await requireClobMarket(ctx, marketId);
  if (market.status !== 'active') {
    throw new DomainError(
      'invalid',
      'MARKET_NOT_ACTIVE',
      `Market ${market.id} is ${market.status}; split and merge need an active market`,
      { marketStatus: market.status },
    );
  }
  return market;
}

export async function buildSplit(ctx: FamilyCContext, p: MarketAmountParams) {
  const owner = parsePubkey(p.pubkey);
  const amount = parseRawAmount(p.amount);
  const market = await activeMarket(ctx, p.marketId);
  const wallet = await readSmartWallet(ctx, owner);
  if (amount > wallet.withdrawable) {
    throw new DomainError(
      'invalid',
      'INSUFFICIENT_BALANCE',
      `Split of ${amount} exceeds the smart wallet's free USDC of ${wallet.withdrawable}`,
      {
        balance: wallet.withdrawable.toString(),
        required: amount.toString(),
      },
    );
  }
  const tx = await unsigned(ctx, owner, [
    getSplitInstruction({ owner, usdcMint: ctx.usdcMint, marketUuid: market.id, amount, programId: ctx.programId }),
  ]);
  return {
    ...tx,
    message: `Sign and submit to split ${usdc(amount)} into ${amount} raw ${market.yes_ticker} + ${amount} raw ${market.no_ticker} tokens in your smart wallet.`,
  };
}

export async function buildMerge(ctx: FamilyCContext, p: MarketAmountParams) {
  const owner = parsePubkey(p.pubkey);
  const amount = parseRawAmount(p.amount);
  const market = await activeMarket(ctx, p.marketId);
  const wallet = await readSmartWallet(ctx, owner);
  const hold = wallet.holds.markets.get(market.id);
  const freeYes = (wallet.tokens.get(market.yes_mint!) ?? 0n) - (hold?.yes ?? 0n);
  const freeNo = (wallet.tokens.get(market.no_mint!) ?? 0n) - (hold?.no ?? 0n);
  const free = freeYes < freeNo ? freeYes : freeNo;
  if (amount > free) {
    throw new DomainError(
      'invalid',
      'INSUFFICIENT_BALANCE',
      `Merge of ${amount} exceeds the free complete sets of ${free > 0n ? free : 0n} (YES and NO tokens not committed to orders)`,
      {
        balance: (free > 0n ? free : 0n).toString(),
        required: amount.toString(),
      },
    );
  }
  const tx = await unsigned(ctx, owner, [
    getMergeInstruction({ owner, usdcMint: ctx.usdcMint, marketUuid: market.id, amount, programId: ctx.programId }),
  ]);
  return { ...tx, message: `Sign and submit to merge ${amount} raw YES + NO tokens back into ${usdc(amount)} in your smart wallet.` };
}

export async function buildClobRedeem(ctx: FamilyCContext, p: MarketAmountParams) {
  const owner = parsePubkey(p.pubkey);
  const amount = parseRawAmount(p.amount);
  const market = await requireClobMarket(ctx, p.marketId);
  if (market.status !== 'resolved' || market.outcome === null) {
    throw new DomainError(
      'invalid',
      'MARKET_NOT_RESOLVED',
      `Market ${market.id} is ${market.status}; redemption opens once it is resolved`,
      { marketStatus: market.status },
    );
  }
  const outcome = market.outcome === 'YES' ? 'yes' : 'no';
  const mint = outcome === 'yes' ? market.yes_mint! : market.no_mint!;
  const wallet = await readSmartWallet(ctx, owner);
  const held = wallet.tokens.get(mint) ?? 0n;
  if (amount > held) {
    throw new DomainError(
      'invalid',
      'INSUFFICIENT_BALANCE',
      `Redemption of ${amount} exceeds the ${held} winning (${outcome}) tokens in the smart wallet`,
      {
        balance: held.toString(),
        required: amount.toString(),
      },
    );
  }
  const tx = await unsigned(ctx, owner, [
    getClobRedeemInstruction({
      owner,
      usdcMint: ctx.usdcMint,
      marketUuid: market.id,
      amount,
      outcome: outcome === 'yes' ? 0 : 1,
      programId: ctx.programId,
    }),
  ]);
  return {
    ...tx,
    message: `Sign and submit to redeem ${amount} raw winning ${outcome.toUpperCase()} tokens for ${usdc(amount)} into your smart wallet.`,
    market: { id: market.id, outcome },
  };
}

export function familyCTxBuilders(ctx: FamilyCContext) {
  return {
    'clob.deposit': (p: WalletAmountParams) => buildDeposit(ctx, p),
    'clob.withdraw': (p: WalletAmountParams) => buildWithdraw(ctx, p),
    'clob.split': (p: MarketAmountParams) => buildSplit(ctx, p),
    'clob.merge': (p: MarketAmountParams) => buildMerge(ctx, p),
    'clob.redeem': (p: MarketAmountParams) => buildClobRedeem(ctx, p),
  };
}

export type FamilyCTxBuilders = ReturnType<typeof familyCTxBuilders>;
