/** The market state the math works on: the numeric part of the on-chain market account. */
export type OutcomeSide = 'YES' | 'NO';
export type MarketMode = 'amm' | 'pool';
export type MarketStatus = 'active' | 'resolved' | 'cancelled';
export type TradeAction = 'buy' | 'sell';

export interface MarketState {
  mode: MarketMode;
  status: MarketStatus;
  winningSide: OutcomeSide | null;
  tradeFeeBps: bigint;
  /** AMM curve reserves (outcome tokens held by the market itself; never minted). 0 in Pool mode. */
  yesReserve: bigint;
  noReserve: bigint;
  /** Outcome tokens held by users (equals the SPL mint supply). */
  yesSupply: bigint;
  noSupply: bigint;
  /**
   * USDC in the vault that backs outcome tokens (seed + trades + liquidity fees − payouts).
   * Unclaimed fees are on top of it. AMM while active: collateral = yesReserve + yesSupply =
   * noReserve + noSupply (one YES + one NO is one USDC).
   */
  collateral: bigint;
  creatorFeesAccrued: bigint;
  creatorFeesClaimed: bigint;
  protocolFeesAccrued: bigint;
  protocolFeesClaimed: bigint;
}

export interface Odds {
  yes: number;
  no: number;
}

export function otherSide(side: OutcomeSide): OutcomeSide {
  return side === 'YES' ? 'NO' : 'YES';
}

/** Everything the vault must be able to pay: backing collateral plus every unclaimed fee. */
export function vaultLiabilities(m: MarketState): bigint {
  return m.collateral + (m.creatorFeesAccrued - m.creatorFeesClaimed) + (m.protocolFeesAccrued - m.protocolFeesClaimed);
}
