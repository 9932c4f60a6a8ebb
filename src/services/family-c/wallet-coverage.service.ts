/**
 * Orders a smart wallet can no longer pay for leave the book at once (docs/family-c.md, "Orders
 * a wallet can no longer pay for"). A withdrawal (or merge, or redemption) built before orders
 * and landed after them leaves the wallet below what its resting orders and unsettled fills
 * commit; a fill against such an order would fail at settlement and hurt its innocent
 * counterparty. So each time the index writes a smart wallet's balances, it checks the owner's
 * coverage here and has the markets' matchers cancel the uncovered orders (newest first across
 * markets, `insufficient_balance`, an `order:cancelled` event each) before it reports the balance.
 *
 * Guarantees: the cancels go through the matcher port, so they reach a market owned by another
 * node; a cancel that finds the order filled or gone changes nothing. Placements after the index
 * wrote the lower balance are checked against it by the matcher; one whose batch read the old
 * balance and committed while this ran is caught by the next round here (up to three), and at the
 * latest by the scheduled full pass, which checks every owner with resting orders.
 * No hold is placed when a withdrawal is built: the build endpoint is unsigned, and a hold there
 * would let anyone lock any trader's balance.
 */
import { PublicKey } from '@solana/web3.js';
import { ownerHoldRows, ownersWithRestingOrders, restingOrdersNewestFirst } from '../../../db/repositories/clob-commitments.repository.js';
import { findClobMarketsByIds } from '../../../db/repositories/clob-markets.repository.js';
import { balancesByOwner } from '../../../db/repositories/token-accounts.repository.js';
import { uncoveredOrders, type CommittedOrder } from '../../domain/orderbook/index.js';
import { timeSlicer } from '../../infra/time-slice.js';
import type { FamilyCContext } from './context.js';
import type { MatcherPort } from './matcher/matcher.port.js';
import { smartWalletAddresses } from './smart-wallet.service.js';

const ROUNDS = 3;

/** The owner's resting orders its smart wallet no longer covers, newest first (none when covered). */
export async function uncoveredOrdersOf(ctx: FamilyCContext, owner: string): Promise<CommittedOrder[]> {
  const resting = await restingOrdersNewestFirst(ctx.db, owner);
  if (resting.length === 0) return [];
  const escrow = smartWalletAddresses(ctx, new PublicKey(owner)).escrow.toBase58();
  const [balances, fillHolds] = await Promise.all([balancesByOwner(ctx.db, escrow), ownerHoldRows(ctx.db, owner)]);
  let committedUsdc = 0n;
  const committedTokens = new Map<string, bigint>();
  const addTokens = (key: string, amount: bigint) => committedTokens.set(key, (committedTokens.get(key) ?? 0n) + amount);
  for (const o of resting) {
    if (o.side === 'buy') committedUsdc += o.committed;
    else addTokens(`${o.marketId}:${o.outcome}`, o.committed);
  }
  for (const h of fillHolds) {
    committedUsdc += h.usdc;
    if (h.yes !== 0n) addTokens(`${h.marketId}:yes`, h.yes);
    if (h.no !== 0n) addTokens(`${h.marketId}:no`, h.no);
  }
  const tokens = new Map<string, bigint>();
  const sellMarkets = [...new Set([...committedTokens.keys()].map((k) => k.slice(0, k.lastIndexOf(':'))))];
  for (const m of await findClobMarketsByIds(ctx.db, sellMarkets)) {
    tokens.set(`${m.id}:yes`, balances.get(m.yes_mint ?? '') ?? 0n);
    tokens.set(`${m.id}:no`, balances.get(m.no_mint ?? '') ?? 0n);
  }
  const usdc = balances.get(ctx.usdcMint.toBase58()) ?? 0n;
  return uncoveredOrders({ usdc, committedUsdc, tokens, committedTokens }, resting);
}

/** Cancels what the owner's wallet no longer covers, each order through its market's matcher; answers the ids cancelled. */
export async function coverWallet(ctx: FamilyCContext, matcher: MatcherPort, owner: string): Promise<string[]> {
  const cancelled: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const uncovered = await uncoveredOrdersOf(ctx, owner);
    if (uncovered.length === 0) break;
    const byMarket = new Map<string, string[]>(); // first seen = holds the newest order
    for (const o of uncovered) byMarket.set(o.marketId, [...(byMarket.get(o.marketId) ?? []), o.id]);
    let progressed = false;
    for (const [marketId, ids] of byMarket) {
      const out = await matcher.cancelOrders(marketId, ids, 'insufficient_balance');
      cancelled.push(...out.cancelled);
      progressed ||= out.cancelled.length > 0;
    }
    if (!progressed) break; // every one was filled or cancelled meanwhile: the next index write decides again
  }
  if (cancelled.length > 0)
    ctx.log.warn({ owner, cancelled: cancelled.length }, 'smart wallet below its commitments: uncovered orders cancelled');
  return cancelled;
}

/** The full index pass: every owner with resting orders, in pages. Answers how many orders were cancelled. */
export async function coverAllWallets(ctx: FamilyCContext, matcher: MatcherPort): Promise<number> {
  const slice = timeSlicer();
  let cancelled = 0;
  for (let after = ''; ;) {
    const owners = await ownersWithRestingOrders(ctx.db, after, 200);
    if (owners.length === 0) break;
    for (const owner of owners) {
      cancelled += (await coverWallet(ctx, matcher, owner)).length;
      await slice();
    }
    after = owners[owners.length - 1]!;
  }
  return cancelled;
}
