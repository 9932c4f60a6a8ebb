/**
 * Odds (the market-implied probability of each side, which is also the spot price in USDC of one
 * token). AMM: odds.yes = noReserve / (yesReserve + noReserve), odds.no = yesReserve / (same).
 * Pool mode: always 0.5 / 0.5 (the price is fixed). Reserves 91/110 → yes 110/201 ≈ 0.5473.
 */
import type { MarketState, Odds, OutcomeSide } from './types.js';

export const EVEN_ODDS: Odds = Object.freeze({ yes: 0.5, no: 0.5 });

export function oddsOf(m: Pick<MarketState, 'mode' | 'yesReserve' | 'noReserve'>): Odds {
  const total = m.yesReserve + m.noReserve;
  if (m.mode === 'pool' || total === 0n) return { ...EVEN_ODDS };
  return { yes: Number(m.noReserve) / Number(total), no: Number(m.yesReserve) / Number(total) };
}

/** Spot price of `side` as an exact fraction num/den (for integer price-impact arithmetic). */
export function spotPriceFraction(
  m: Pick<MarketState, 'mode' | 'yesReserve' | 'noReserve'>,
  side: OutcomeSide,
): { num: bigint; den: bigint } {
  const total = m.yesReserve + m.noReserve;
  if (m.mode === 'pool' || total === 0n) return { num: 1n, den: 2n };
  return { num: side === 'YES' ? m.noReserve : m.yesReserve, den: total };
}
