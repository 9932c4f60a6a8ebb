/**
 * A wallet's position in one market, from the market state and the wallet's balances (raw
 * units). Redeemable value uses the same payout function as the program (rounded down).
 */
import { type MarketState, redeemPayout, type OutcomeSide } from '@pmx/programs';

export interface PositionFigures {
  isResolved: boolean;
  hasWinningTokens: boolean;
  /** Raw USDC the wallet would receive by redeeming everything now. */
  redeemableRaw: bigint;
  needsRedemption: boolean;
}

export function positionFigures(market: MarketState, balances: { yes: bigint; no: bigint }): PositionFigures {
  const settled = market.status === 'resolved' || market.status === 'cancelled';
  let redeemable = 0n;
  if (settled) {
    let state = market;
    for (const side of ['YES', 'NO'] as OutcomeSide[]) {
      // An index a moment behind the chain may show more than the supply: count at most the supply.
      const held = side === 'YES' ? balances.yes : balances.no;
      const supply = side === 'YES' ? state.yesSupply : state.noSupply;
      const tokens = held < supply ? held : supply;
      if (tokens === 0n) continue;
      const result = redeemPayout(state, side, tokens);
      redeemable += result.payout;
      state = result.next;
    }
  }
  const winning =
    market.status === 'resolved' && market.winningSide !== null ? (market.winningSide === 'YES' ? balances.yes : balances.no) > 0n : false;
  return {
    isResolved: market.status === 'resolved',
    hasWinningTokens: winning,
    redeemableRaw: redeemable,
    needsRedemption: settled && redeemable > 0n,
  };
}
