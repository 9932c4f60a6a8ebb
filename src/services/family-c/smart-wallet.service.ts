/**
 * A trader's smart wallet as the index sees it: the escrow PDA's USDC and outcome-token
 * accounts (indexed from token-account notifications, slot-guarded), what open orders and
 * unsettled fills hold, and what is left to withdraw:
 *   withdrawable = smart-wallet USDC − (resting buys' commitments + unsettled fills' USDC holds),
 * never below 0. Example: 50 USDC deposited, a resting bid of 25 YES at 7000 commits
 * ceil(25 × 7000 / 10000) = 17.5 USDC → withdrawable 32.5 USDC (32_500_000 raw).
 */
import type { PublicKey } from '@solana/web3.js';
import { ownerHoldRows, restingCommitments } from '../../../db/repositories/clob-commitments.repository.js';
import { findClobMarketsByIds, findClobMarketsByMints } from '../../../db/repositories/clob-markets.repository.js';
import { balancesByOwner, tokenAccountsOf } from '../../../db/repositories/token-accounts.repository.js';
import { findEscrowTokenAddress, findUserEscrowPda } from '@pmx/programs';
import { ownerHolds, type OwnerHolds } from '../../domain/orderbook/index.js';
import { ataBalance } from '../family-b/token-balances.js';
import type { FamilyCContext } from './context.js';

export interface SmartWalletAddresses {
  escrow: PublicKey;
  escrowUsdc: PublicKey;
}

export function smartWalletAddresses(ctx: Pick<FamilyCContext, 'programId' | 'usdcMint'>, owner: PublicKey): SmartWalletAddresses {
  return { escrow: findUserEscrowPda(owner, ctx.programId)[0], escrowUsdc: findEscrowTokenAddress(owner, ctx.usdcMint, ctx.programId) };
}

export interface SmartWalletState extends SmartWalletAddresses {
  /** Whether the smart wallet's USDC account exists (created with the escrow by the first deposit). */
  exists: boolean;
  usdc: bigint;
  /** Indexed non-zero balances of the escrow per mint. */
  tokens: Map<string, bigint>;
  holds: OwnerHolds;
  withdrawable: bigint;
}

export async function readSmartWallet(ctx: FamilyCContext, owner: PublicKey): Promise<SmartWalletState> {
  const addresses = smartWalletAddresses(ctx, owner);
  const escrow = addresses.escrow.toBase58();
  const key = owner.toBase58();
  const [usdcRows, tokens, resting, fillHolds] = await Promise.all([
    tokenAccountsOf(ctx.db, escrow, [ctx.usdcMint.toBase58()]),
    balancesByOwner(ctx.db, escrow),
    restingCommitments(ctx.db, key),
    ownerHoldRows(ctx.db, key),
  ]);
  const usdcRow = usdcRows.find((r) => r.address === addresses.escrowUsdc.toBase58());
  const usdc = usdcRow?.amount ?? 0n;
  const holds = ownerHolds(key, resting, []);
  for (const h of fillHolds) {
    if (h.usdc === 0n && h.yes === 0n && h.no === 0n) continue;
    const m = holds.markets.get(h.marketId) ?? { usdc: 0n, yes: 0n, no: 0n };
    holds.markets.set(h.marketId, { usdc: m.usdc + h.usdc, yes: m.yes + h.yes, no: m.no + h.no });
    holds.usdc += h.usdc;
  }
  const free = usdc - holds.usdc;
  return { ...addresses, exists: usdcRow !== undefined, usdc, tokens, holds, withdrawable: free > 0n ? free : 0n };
}

export async function setupView(ctx: FamilyCContext, owner: PublicKey) {
  const w = await readSmartWallet(ctx, owner);
  return {
    pubkey: owner.toBase58(),
    ready: w.usdc > 0n,
    smartWalletBalance: w.usdc.toString(),
    smartWallet: w.escrow.toBase58(),
    usdcAccount: w.escrowUsdc.toBase58(),
    smartWalletExists: w.exists,
    usdcMint: ctx.usdcMint.toBase58(),
  };
}

export async function balancesView(ctx: FamilyCContext, owner: PublicKey) {
  const w = await readSmartWallet(ctx, owner);
  const walletBalance = await ataBalance(ctx.chain, ctx.usdcMint, owner);
  const byMint = await findClobMarketsByMints(ctx.db, [...w.tokens.keys()]);
  const committedIds = [...w.holds.markets.keys()].filter((id) => !byMint.some((m) => m.id === id));
  const markets = [...byMint, ...(await findClobMarketsByIds(ctx.db, committedIds))];
  return {
    pubkey: owner.toBase58(),
    smartWallet: w.escrow.toBase58(),
    smartWalletBalance: w.usdc.toString(),
    withdrawable: w.withdrawable.toString(),
    walletBalance: walletBalance.toString(),
    collateral: w.withdrawable.toString(),
    totalCommitted: w.holds.usdc.toString(),
    markets: markets.map((m) => {
      const hold = w.holds.markets.get(m.id);
      return {
        marketId: m.id,
        marketSlug: m.slug,
        yesTokens: (w.tokens.get(m.yes_mint ?? '') ?? 0n).toString(),
        noTokens: (w.tokens.get(m.no_mint ?? '') ?? 0n).toString(),
        committedCollateral: (hold?.usdc ?? 0n).toString(),
        committedYesTokens: (hold?.yes ?? 0n).toString(),
        committedNoTokens: (hold?.no ?? 0n).toString(),
      };
    }),
  };
}
