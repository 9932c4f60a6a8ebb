/**
 * The one trade function of Family B: the API's quote and the market program's buy/sell both call
 * quoteBuy/quoteSell, so a quote followed at once by the trade yields exactly the quoted output.
 *
 * Definitions (docs/programs.md):
 * - buy:  effectiveAmount = inputAmount − tradeFee − liquidityFee (the USDC that trades on the
 *         curve); outputAmount = tokens received.
 * - sell: effectiveAmount = gross USDC the curve pays for the tokens; outputAmount =
 *         effectiveAmount − tradeFee − liquidityFee (USDC received).
 * - effectivePrice = USDC per token paid or received, fees included: buy input/output, sell
 *   output/input.
 * - priceImpactBps = how much worse than the pre-trade spot price (preOdds of the side) the curve
 *   executes, fees excluded: buy (effectiveAmount/outputAmount − spot)/spot, sell
 *   (spot − effectiveAmount/inputAmount)/spot, × 10 000, rounded up, never negative. 0 in Pool mode.
 * - preOdds/postOdds = oddsOf(market) before and after the trade (the liquidity fee included).
 * The liquidity fee stays in the pool: in AMM mode it is added as complete sets to both reserves
 * after the swap (deepening the curve; it belongs to the creator's surplus at resolution), in Pool
 * mode it joins the pot the winners split.
 */
import { ammBuy, ammSell } from './amm.js';
import { AmmError } from './errors.js';
import { computeFees } from './fees.js';
import { assertU64, mulDivCeil } from './money.js';
import { oddsOf, spotPriceFraction } from './odds.js';
import { poolBuy } from './pool.js';
import type { MarketState, Odds, OutcomeSide, TradeAction } from './types.js';

/** Smallest buy (USDC) and sell (tokens) amount, raw units: 0.1. */
export const MIN_TRADE_AMOUNT = 100_000n;

export interface TradeQuote {
  side: OutcomeSide;
  action: TradeAction;
  inputAmount: bigint;
  outputAmount: bigint;
  effectivePrice: number;
  priceImpactBps: number;
  tradeFee: bigint;
  liquidityFee: bigint;
  effectiveAmount: bigint;
  creatorFee: bigint;
  protocolFee: bigint;
  preOdds: Odds;
  postOdds: Odds;
  /** The market state after the trade (what the program writes back). */
  next: MarketState;
}

export function assertActive(m: MarketState): void {
  if (m.status !== 'active') throw new AmmError('MarketNotActive', `market is ${m.status}`);
}

/** ceil(max(0, worseNum / refNum) × 10 000): a relative shortfall in basis points, rounded up. */
function impactBps(worseNum: bigint, refNum: bigint): number {
  if (worseNum <= 0n || refNum <= 0n) return 0;
  return Number(mulDivCeil(worseNum, 10_000n, refNum));
}

function checkedState(m: MarketState): MarketState {
  for (const [key, value] of Object.entries(m)) {
    if (typeof value === 'bigint') assertU64(value, key);
  }
  return m;
}

export function quoteBuy(m: MarketState, side: OutcomeSide, amountIn: bigint): TradeQuote {
  assertActive(m);
  if (amountIn < MIN_TRADE_AMOUNT) throw new AmmError('AmountTooSmall', `buy amount below ${MIN_TRADE_AMOUNT}`);
  assertU64(amountIn, 'amountIn');
  const fees = computeFees(amountIn, m.tradeFeeBps);
  if (fees.net <= 0n) throw new AmmError('AmountTooSmall', 'fees exceed the amount');
  let out: bigint;
  let yesReserve = m.yesReserve;
  let noReserve = m.noReserve;
  let impact = 0;
  if (m.mode === 'amm') {
    const swap = ammBuy(m, side, fees.net);
    out = swap.tokensOut;
    yesReserve = swap.next.yesReserve + fees.liquidityFee;
    noReserve = swap.next.noReserve + fees.liquidityFee;
    // (net/out − p)/p with p = num/den  =  (net·den − num·out) / (num·out)
    const spot = spotPriceFraction(m, side);
    impact = impactBps(fees.net * spot.den - spot.num * out, spot.num * out);
  } else {
    out = poolBuy(fees.net);
  }
  const next = checkedState({
    ...m,
    yesReserve,
    noReserve,
    yesSupply: side === 'YES' ? m.yesSupply + out : m.yesSupply,
    noSupply: side === 'NO' ? m.noSupply + out : m.noSupply,
    collateral: m.collateral + fees.net + fees.liquidityFee,
    creatorFeesAccrued: m.creatorFeesAccrued + fees.creatorFee,
    protocolFeesAccrued: m.protocolFeesAccrued + fees.protocolFee,
  });
  return {
    side,
    action: 'buy',
    inputAmount: amountIn,
    outputAmount: out,
    effectivePrice: Number(amountIn) / Number(out),
    priceImpactBps: impact,
    tradeFee: fees.tradeFee,
    liquidityFee: fees.liquidityFee,
    effectiveAmount: fees.net,
    creatorFee: fees.creatorFee,
    protocolFee: fees.protocolFee,
    preOdds: oddsOf(m),
    postOdds: oddsOf(next),
    next,
  };
}

export function quoteSell(m: MarketState, side: OutcomeSide, tokensIn: bigint): TradeQuote {
  assertActive(m);
  if (m.mode !== 'amm') throw new AmmError('SellNotAllowedInPoolMode');
  if (tokensIn < MIN_TRADE_AMOUNT) throw new AmmError('AmountTooSmall', `sell amount below ${MIN_TRADE_AMOUNT}`);
  const supply = side === 'YES' ? m.yesSupply : m.noSupply;
  if (tokensIn > supply) throw new AmmError('InvalidArgument', 'more tokens than the outstanding supply');
  const swap = ammSell(m, side, tokensIn);
  const gross = swap.collateralOut;
  const fees = computeFees(gross, m.tradeFeeBps);
  if (fees.net <= 0n) throw new AmmError('AmountTooSmall', 'fees exceed the proceeds');
  const spot = spotPriceFraction(m, side);
  // (p − gross/t)/p  =  (num·t − gross·den) / (num·t)
  const impact = impactBps(spot.num * tokensIn - gross * spot.den, spot.num * tokensIn);
  const next = checkedState({
    ...m,
    yesReserve: swap.next.yesReserve + fees.liquidityFee,
    noReserve: swap.next.noReserve + fees.liquidityFee,
    yesSupply: side === 'YES' ? m.yesSupply - tokensIn : m.yesSupply,
    noSupply: side === 'NO' ? m.noSupply - tokensIn : m.noSupply,
    collateral: m.collateral - gross + fees.liquidityFee,
    creatorFeesAccrued: m.creatorFeesAccrued + fees.creatorFee,
    protocolFeesAccrued: m.protocolFeesAccrued + fees.protocolFee,
  });
  return {
    side,
    action: 'sell',
    inputAmount: tokensIn,
    outputAmount: fees.net,
    effectivePrice: Number(fees.net) / Number(tokensIn),
    priceImpactBps: impact,
    tradeFee: fees.tradeFee,
    liquidityFee: fees.liquidityFee,
    effectiveAmount: gross,
    creatorFee: fees.creatorFee,
    protocolFee: fees.protocolFee,
    preOdds: oddsOf(m),
    postOdds: oddsOf(next),
    next,
  };
}

/** The quote endpoint's dispatch: `action` buy spends USDC, sell spends tokens. */
export function quoteTrade(m: MarketState, action: TradeAction, side: OutcomeSide, amount: bigint): TradeQuote {
  return action === 'buy' ? quoteBuy(m, side, amount) : quoteSell(m, side, amount);
}
