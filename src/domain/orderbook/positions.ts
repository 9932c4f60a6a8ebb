/**
 * Positions and PnL of one owner in one market's outcome, from what actually settled (public
 * facts: positions, and the spec's rules):
 * - a buy of q tokens for u USDC with fee f adds q to `netQuantity` and u + f to `totalCost`
 *   (the weighted-average cost basis includes what the buy cost in fees); `totalFees += f`;
 * - a sell of q for proceeds p with fee f realises `p − costPortion − f`, where
 *   `costPortion = floor(totalCost × q / netQuantity)` (the weighted-average cost of what is
 *   sold), then `totalCost −= costPortion`, `netQuantity −= q`, `totalProceeds += p`;
 *   a split buys both outcomes at 5000 bps, a merge sells both at 5000 (wallet-moves.ts);
 * - a maker's rebate is a negative fee; a complementary fill is a buy for both owners, a
 *   sell_complementary fill a sale for both; a redemption is a sale without fee at 10000 (won)
 *   or 0 (lost);
 * - `currentPrice` is the mid of best bid and ask, one side when only one exists, null when none;
 *   10000 / 0 once resolved; `unrealizedPnl = floor(netQuantity × currentPrice / 10000) −
 *   totalCost`, null without a price; `avgEntryPrice = totalCost × 10000 / netQuantity` (bps).
 * Example: buy 100 YES at 6000 (60 USDC, fee 0.15) → cost 60.15; sell 40 at 7000 (28 USDC, fee
 * 0.07) → costPortion floor(60.15 × 40 / 100) = 24.06, realised 28 − 24.06 − 0.07 = 3.87; left:
 * 60 tokens, cost 36.09; at a mid of 6500, unrealised 39 − 36.09 = 2.91.
 */
export interface PositionState {
  netQuantity: bigint;
  totalCost: bigint;
  totalProceeds: bigint;
  totalFees: bigint;
  realizedPnl: bigint;
}

export const EMPTY_POSITION: PositionState = { netQuantity: 0n, totalCost: 0n, totalProceeds: 0n, totalFees: 0n, realizedPnl: 0n };

export function applyBuy(p: PositionState, quantity: bigint, usdc: bigint, fee: bigint): PositionState {
  return { ...p, netQuantity: p.netQuantity + quantity, totalCost: p.totalCost + usdc + fee, totalFees: p.totalFees + fee };
}

/** Needs `quantity ≤ netQuantity`: a sale beyond what the position counts is split first (applyOwnerMove). */
export function applySell(p: PositionState, quantity: bigint, proceeds: bigint, fee: bigint): PositionState {
  // The weighted-average cost of what is sold, floored: the remaining cost keeps the raw unit, so
  // realised + remaining cost always add up to what was paid.
  const costPortion = p.netQuantity === 0n ? 0n : (p.totalCost * quantity) / p.netQuantity;
  return {
    netQuantity: p.netQuantity - quantity,
    totalCost: p.totalCost - costPortion,
    totalProceeds: p.totalProceeds + proceeds,
    totalFees: p.totalFees + fee,
    realizedPnl: p.realizedPnl + proceeds - costPortion - fee,
  };
}

/** A redemption: a sale without fee at 10000 bps for the winning outcome, 0 for the losing one. */
export function applyRedemption(p: PositionState, quantity: bigint, won = true): PositionState {
  return applySell(p, quantity, won ? quantity : 0n, 0n);
}

export function currentPrice(bestBid: number | null, bestAsk: number | null): number | null {
  if (bestBid !== null && bestAsk !== null) return Math.floor((bestBid + bestAsk) / 2);
  return bestBid ?? bestAsk;
}

export function unrealizedPnl(p: PositionState, price: number | null): bigint | null {
  if (price === null) return null;
  return (p.netQuantity * BigInt(price)) / 10_000n - p.totalCost;
}

export function avgEntryPrice(p: PositionState): number {
  return p.netQuantity > 0n ? Number((p.totalCost * 10_000n) / p.netQuantity) : 0;
}

/** How one settled fill moves each of its owners' positions (owner, outcome, buy or sell, amounts). */
export interface PositionMove {
  owner: string;
  outcome: 'yes' | 'no';
  side: 'buy' | 'sell';
  quantity: bigint;
  usdc: bigint;
  fee: bigint;
}

export function fillMoves(f: {
  maker_owner: string;
  taker_owner: string;
  taker_side: 'buy' | 'sell';
  outcome: 'yes' | 'no';
  maker_side: 'buy' | 'sell';
  maker_outcome: 'yes' | 'no';
  quantity: bigint;
  usdc_amount: bigint;
  maker_usdc: bigint;
  taker_fee: bigint;
  maker_rebate: bigint;
}): PositionMove[] {
  return [
    { owner: f.taker_owner, outcome: f.outcome, side: f.taker_side, quantity: f.quantity, usdc: f.usdc_amount, fee: f.taker_fee },
    { owner: f.maker_owner, outcome: f.maker_outcome, side: f.maker_side, quantity: f.quantity, usdc: f.maker_usdc, fee: -f.maker_rebate },
  ];
}

export function applyMove(p: PositionState, m: PositionMove): PositionState {
  return m.side === 'buy' ? applyBuy(p, m.quantity, m.usdc, m.fee) : applySell(p, m.quantity, m.usdc, m.fee);
}

/** One owner's two positions in one market. */
export interface MarketPositions {
  yes: PositionState;
  no: PositionState;
}

/**
 * A split of q USDC buys q of each outcome at 5000 bps: YES costs q − floor(q/2), NO floor(q/2),
 * so that the two costs add up to the q raw units paid (YES carries the odd unit). A merge sells
 * both at 5000 the same way. Neither pays a fee.
 */
export function applySplit(pair: MarketPositions, quantity: bigint): MarketPositions {
  const half = quantity / 2n;
  return { yes: applyBuy(pair.yes, quantity, quantity - half, 0n), no: applyBuy(pair.no, quantity, half, 0n) };
}

export function applyMerge(pair: MarketPositions, quantity: bigint): MarketPositions {
  const half = quantity / 2n;
  return { yes: applySell(pair.yes, quantity, quantity - half, 0n), no: applySell(pair.no, quantity, half, 0n) };
}

/**
 * Applies one settled fill's move to its owner's positions in the market. A sale of more tokens
 * than the position counts sold tokens of a split the positions job has not seen yet (the only
 * other way in: a smart wallet's outcome tokens come from fills and splits): that split is
 * counted first, on both outcomes, and the wallet reconciliation later finds only the rest of it.
 */
export function applyOwnerMove(pair: MarketPositions, m: PositionMove): MarketPositions {
  const held = pair[m.outcome].netQuantity > 0n ? pair[m.outcome].netQuantity : 0n;
  const covered = m.side === 'sell' && m.quantity > held ? applySplit(pair, m.quantity - held) : pair;
  return { ...covered, [m.outcome]: applyMove(covered[m.outcome], m) };
}
