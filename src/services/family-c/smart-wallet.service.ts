/**
 * A trader's smart wallet as the index sees it: the escrow PDA's USDC and outcome-token
 * accounts (indexed from token-account notifications, slot-guarded), what open orders and
 * unsettled fills hold, and what is left to withdraw:
 *   withdrawable = smart-wallet USDC − (resting buys' commitments + unsettled fills' USDC holds),
 * never below 0. Example: 50 USDC deposited, a resting bid of 25 YES at 7000 commits
 * ceil(25 × 7000 / 10000) = 17.5 USDC → withdrawable 32.5 USDC (32_500_000 raw).
 */
import type { PublicKey } from '@solana/web3.js';
import { ownerHoldRowsOf, restingCommitmentsOf } from '../../../db/repositories/clob-commitments.repository.js';
import { findClobMarketsByIds, findClobMarketsByMints } from '../../../db/repositories/clob-markets.repository.js';
import { tokenAccountsOfOwners } from '../../../db/repositories/token-accounts.repository.js';
import { addressOf, associatedTokenAddress, decodeTokenAccount, findEscrowTokenAddress, findUserEscrowPda } from '@pmx/programs';
import { ownerHolds, type OwnerHolds } from '../../domain/orderbook/index.js';
import type { AccountSnapshot } from '../../chain/chain-client.js';
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
  return (await readSmartWallets(ctx, [owner]))[0]!;
}

/**
 * Several smart wallets read at once, in the order given: four queries for all of them (the
 * index's reaction to a settlement group's owners made four per owner).
 */
export async function readSmartWallets(ctx: FamilyCContext, owners: readonly PublicKey[]): Promise<SmartWalletState[]> {
  const addresses = owners.map((o) => smartWalletAddresses(ctx, o));
  const keys = owners.map((o) => o.toBase58());
  const escrows = addresses.map((a) => a.escrow.toBase58());
  const [accounts, resting, fillHolds] = await Promise.all([
    tokenAccountsOfOwners(ctx.db, escrows),
    restingCommitmentsOf(ctx.db, keys),
    ownerHoldRowsOf(ctx.db, keys),
  ]);
  const usdcMint = ctx.usdcMint.toBase58();
  return keys.map((key, i) => {
    const escrow = escrows[i]!;
    const mine = accounts.filter((a) => a.owner === escrow);
    const usdcRow = mine.find((r) => r.mint === usdcMint && r.address === addresses[i]!.escrowUsdc.toBase58());
    const usdc = usdcRow?.amount ?? 0n;
    // Non-zero balances per mint (several accounts of one mint summed).
    const tokens = new Map<string, bigint>();
    for (const r of mine) if (r.amount > 0n) tokens.set(r.mint, (tokens.get(r.mint) ?? 0n) + r.amount);
    const holds = ownerHolds(key, resting.get(key) ?? [], []);
    for (const h of fillHolds.get(key) ?? []) {
      if (h.usdc === 0n && h.yes === 0n && h.no === 0n) continue;
      const m = holds.markets.get(h.marketId) ?? { usdc: 0n, yes: 0n, no: 0n };
      holds.markets.set(h.marketId, { usdc: m.usdc + h.usdc, yes: m.yes + h.yes, no: m.no + h.no });
      holds.usdc += h.usdc;
    }
    const free = usdc - holds.usdc;
    return { ...addresses[i]!, exists: usdcRow !== undefined, usdc, tokens, holds, withdrawable: free > 0n ? free : 0n };
  });
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
  return (await balancesViews(ctx, [owner]))[0]!;
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** `balancesView` of several owners, in the order given, with the reads shared (one per kind for all). */
export async function balancesViews(ctx: FamilyCContext, owners: readonly PublicKey[]) {
  const wallets = await readSmartWallets(ctx, owners);
  const atas = owners.map((o) => addressOf(associatedTokenAddress(ctx.usdcMint, o)));
  const snapshots: (AccountSnapshot | null)[] = [];
  for (let i = 0; i < atas.length; i += 100) snapshots.push(...(await ctx.chain.getMultipleAccounts(atas.slice(i, i + 100))));
  const mints = [...new Set(wallets.flatMap((w) => [...w.tokens.keys()]))];
  const byMint = await findClobMarketsByMints(ctx.db, mints);
  const committedIds = [...new Set(wallets.flatMap((w) => [...w.holds.markets.keys()]))].filter((id) => !byMint.some((m) => m.id === id));
  const read = [...byMint, ...(await findClobMarketsByIds(ctx.db, committedIds))];
  return wallets.map((w, i) => {
    const snapshot = snapshots[i];
    const walletBalance = snapshot ? (decodeTokenAccount(snapshot.data)?.amount ?? 0n) : 0n;
    // The owner's markets: those of its tokens, then those it only commits in, each in id order (the
    // reads have no order, and read with other owners a market may come from either read).
    const mine = byMint.filter((m) => w.tokens.has(m.yes_mint ?? '') || w.tokens.has(m.no_mint ?? '')).sort(byId);
    const committed = read.filter((m) => w.holds.markets.has(m.id) && !mine.some((b) => b.id === m.id)).sort(byId);
    const markets = [...mine, ...committed];
    return {
      pubkey: owners[i]!.toBase58(),
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
  });
}
