/**
 * Trade fees. Both fees are charged on the USDC that crosses the curve: the input of a buy, the
 * gross proceeds of a sell. The user pays them, so both round up.
 *
 * Example (buy 100 USDC, tradeFeeBps 200): tradeFee = ceil(100_000_000 × 200 / 10_000) = 2_000_000,
 * liquidityFee = ceil(100_000_000 × 150 / 10_000) = 1_500_000, creatorFee = 1_000_000,
 * protocolFee = 1_000_000, net = 96_500_000.
 */
import { bpsCeil } from './money.js';

/** The liquidity fee rate: 1.5 %, whatever the trade fee; it stays in the pool (docs/programs.md). */
export const LIQUIDITY_FEE_BPS = 150n;
export const MIN_TRADE_FEE_BPS = 100n;
export const MAX_TRADE_FEE_BPS = 400n;

export interface FeeBreakdown {
  tradeFee: bigint;
  liquidityFee: bigint;
  /** floor(tradeFee / 2): the creator's half. */
  creatorFee: bigint;
  /** tradeFee − creatorFee: the protocol's half (gets the odd raw unit). */
  protocolFee: bigint;
  /** amount − tradeFee − liquidityFee (may be ≤ 0 for dust; callers refuse that). */
  net: bigint;
}

export function computeFees(amount: bigint, tradeFeeBps: bigint): FeeBreakdown {
  const tradeFee = bpsCeil(amount, tradeFeeBps);
  const liquidityFee = bpsCeil(amount, LIQUIDITY_FEE_BPS);
  const creatorFee = tradeFee / 2n;
  return {
    tradeFee,
    liquidityFee,
    creatorFee,
    protocolFee: tradeFee - creatorFee,
    net: amount - tradeFee - liquidityFee,
  };
}
