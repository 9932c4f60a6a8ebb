/**
 * What the program will compute for a sequence of fills, from the order accounts as read on
 * chain: the keeper's check before it sends (settled in the engine's order, the prediction equals
 * the engine's amounts; after a fill of the same order failed and was skipped, the totals differ
 * and so may a raw unit here and there — the receipt then holds the settled truth). Balances are
 * not predicted: they are the chain's to check at execution.
 */
import { PublicKey } from '@solana/web3.js';
import { decodeOrderMessage } from '../../orderbook/order-message.js';
import type { FeeConfig } from '../../orderbook/order-types.js';
import type { SettleErrorName } from './settle-errors.js';
import {
  afterFill,
  EMPTY_TOTALS,
  fillPrices,
  fillTypeOf,
  settlementMoney,
  withinSignedLimit,
  type OrderTotals,
  type SettlementMoney,
} from './fill-amounts.js';
import type { OrderStateAccount } from './order-state.js';
import { findOrderStatePda } from './settle-pda.js';
import type { SettlementFill } from './settlement-types.js';

export type PredictedFill =
  { fillId: string; money: SettlementMoney; error?: undefined } | { fillId: string; error: SettleErrorName; money?: undefined };

/** Each fill's money, or the refusal the program would answer, fills applied in order (refused ones skipped). */
export function predictSettlement(
  fills: readonly SettlementFill[],
  orderStates: ReadonlyMap<string, OrderStateAccount>,
  fees: FeeConfig,
  programId?: PublicKey,
): PredictedFill[] {
  const totals = new Map<string, OrderTotals>();
  return fills.map((fill) => {
    const taker = decodeOrderMessage(fill.takerOrder.message);
    const maker = decodeOrderMessage(fill.makerOrder.message);
    const [tKey, mKey] = [taker, maker].map((m) => findOrderStatePda(new PublicKey(m.owner), m.nonce, programId)[0].toBase58()) as [
      string,
      string,
    ];
    const current = (k: string) => totals.get(k) ?? orderStates.get(k) ?? EMPTY_TOTALS;
    const refuse = (error: SettleErrorName): PredictedFill => ({ fillId: fill.fillId, error });
    if (Buffer.from(taker.owner).equals(maker.owner)) return refuse('SelfTrade');
    const type = fillTypeOf(taker, maker);
    if (!type) return refuse('InvalidFillType');
    const prices = fillPrices(type, taker, maker);
    if (!prices) return refuse('PriceNotCrossing');
    const [t, m] = [current(tKey), current(mKey)];
    if (t.filled + fill.quantity > taker.quantity || m.filled + fill.quantity > maker.quantity) return refuse('OrderOverfilled');
    const money = settlementMoney(type, { message: taker, totals: t }, { message: maker, totals: m }, fill.quantity, prices, fees);
    const nextT = afterFill(t, {
      quantity: fill.quantity,
      price: prices.takerPrice,
      usdc: money.takerUsdc,
      asTaker: true,
      fee: money.takerFee,
      rebate: 0n,
    });
    const nextM = afterFill(m, {
      quantity: fill.quantity,
      price: prices.makerPrice,
      usdc: money.makerUsdc,
      asTaker: false,
      fee: 0n,
      rebate: money.makerRebate,
    });
    if (!withinSignedLimit(taker, nextT) || !withinSignedLimit(maker, nextM)) return refuse('LimitExceeded');
    totals.set(tKey, nextT);
    totals.set(mKey, nextM);
    return { fillId: fill.fillId, money };
  });
}

/** True when the engine's amounts on the fill equal the predicted ones (fields absent on the fill are not compared). */
export function matchesEngineAmounts(fill: SettlementFill, money: SettlementMoney): boolean {
  const pairs: [bigint | undefined, bigint][] = [
    [fill.usdcAmount, money.takerUsdc],
    [fill.makerUsdc, money.makerUsdc],
    [fill.takerFee, money.takerFee],
    [fill.makerRebate, money.makerRebate],
    [fill.protocolFee, money.protocolFee],
    [fill.roundingDust, money.roundingDust],
  ];
  return pairs.every(([a, b]) => a === undefined || a === b);
}
