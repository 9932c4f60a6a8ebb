/**
 * Which resting orders leave the book when a smart wallet no longer holds what its owner
 * committed (docs/family-c.md, "Orders a wallet can no longer pay for"). A withdrawal, merge or
 * redemption built before orders and landed after them leaves the wallet below its commitments;
 * a fill against such an order could never settle, so the index cancels orders until the rest
 * is covered:
 * - USDC: when the wallet holds less USDC than its resting buys and unsettled fills commit, the
 *   owner's resting buys are cancelled newest first, across markets, until the shortfall is
 *   covered (or none is left: an unsettled fill cannot be cancelled, its settlement decides);
 * - tokens: per market and outcome, when the wallet holds fewer tokens than its resting sells and
 *   unsettled sells commit, the resting sells of that market and outcome, newest first, likewise.
 * Cancelling more than the shortfall is the rounding against the owner: an order is cancelled
 * whole or not at all (shrinking a signed order is not possible).
 *
 * Example: 40 USDC held; bids A 20 (oldest), B 30, C 25 (newest) commit 75 → shortfall 35.
 * C goes (shortfall 10), then B (covered, 15 to spare); A stays.
 */
import type { Outcome, Side } from './types.js';

export interface CommittedOrder {
  id: string;
  marketId: string;
  side: Side;
  outcome: Outcome;
  /** USDC for a buy, tokens of its market and outcome for a sell (raw units). */
  committed: bigint;
}

export interface WalletCover {
  usdc: bigint;
  /** What resting buys and unsettled fills hold of the USDC. */
  committedUsdc: bigint;
  /** Tokens held, keyed `${marketId}:${outcome}`. */
  tokens: ReadonlyMap<string, bigint>;
  /** What resting sells and unsettled sells hold, keyed `${marketId}:${outcome}`. */
  committedTokens: ReadonlyMap<string, bigint>;
}

/** The orders to cancel so that what is left is covered, from `restingNewestFirst` (newest first). */
export function uncoveredOrders(wallet: WalletCover, restingNewestFirst: readonly CommittedOrder[]): CommittedOrder[] {
  const shortfall = new Map<string, bigint>();
  if (wallet.committedUsdc > wallet.usdc) shortfall.set('usdc', wallet.committedUsdc - wallet.usdc);
  for (const [key, committed] of wallet.committedTokens) {
    const held = wallet.tokens.get(key) ?? 0n;
    if (committed > held) shortfall.set(key, committed - held);
  }
  const out: CommittedOrder[] = [];
  if (shortfall.size === 0) return out;
  for (const order of restingNewestFirst) {
    const key = order.side === 'buy' ? 'usdc' : `${order.marketId}:${order.outcome}`;
    const left = shortfall.get(key);
    if (left === undefined || left <= 0n || order.committed <= 0n) continue;
    out.push(order);
    shortfall.set(key, left - order.committed);
  }
  return out;
}
