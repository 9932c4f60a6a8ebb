/**
 * What a fill between two signed orders moves, as the exchange program computes it: the fill
 * type from the two messages, the price from the maker's limit (the engine's rule: the maker's
 * price sets the fill price, the taker keeps any improvement), and the legs, fees and dust from
 * the matching engine's own `fillMoney` applied to the orders' on-chain running totals. Settled
 * in the engine's order, that reproduces the engine's fills to the raw unit. Pure: the reference
 * program calls it, and so can the keeper to predict a batch before sending it.
 */
import { ceilDiv, fillMoney, type FillMoney } from '../../orderbook/amounts.js';
import type { OrderMessage } from '../../orderbook/order-message.js';
import { BPS, type FeeConfig, type FillType } from '../../orderbook/order-types.js';
import type { OrderStateAccount } from './order-state.js';

export type OrderTotals = Pick<OrderStateAccount, 'filled' | 'notional' | 'usdc' | 'takerUsdc' | 'feesPaid' | 'rebates' | 'fills'>;

export const EMPTY_TOTALS: OrderTotals = { filled: 0n, notional: 0n, usdc: 0n, takerUsdc: 0n, feesPaid: 0n, rebates: 0n, fills: 0 };

/** direct: same outcome, opposite sides; complementary: two buys of opposite outcomes; sell_complementary: two sells. */
export function fillTypeOf(taker: OrderMessage, maker: OrderMessage): FillType | null {
  if (taker.outcome === maker.outcome) return taker.side !== maker.side ? 'direct' : null;
  if (taker.side !== maker.side) return null;
  return taker.side === 'buy' ? 'complementary' : 'sell_complementary';
}

/**
 * Each order's price for the fill (in its own outcome), or null when they do not cross: the
 * maker's limit (1–9999: only limit orders rest) sets it; the taker's limit (1–10000, a market
 * order may cap at 10000) must accept it — a buyer pays at most, a seller receives at least.
 */
export function fillPrices(type: FillType, taker: OrderMessage, maker: OrderMessage): { takerPrice: number; makerPrice: number } | null {
  const makerPrice = maker.priceBps;
  if (makerPrice < 1 || makerPrice > 9999 || taker.priceBps < 1 || taker.priceBps > 10_000) return null;
  const takerPrice = type === 'direct' ? makerPrice : 10_000 - makerPrice;
  const accepts = taker.side === 'buy' ? takerPrice <= taker.priceBps : takerPrice >= taker.priceBps;
  return accepts ? { takerPrice, makerPrice } : null;
}

export interface SettlementMoney extends FillMoney {
  fillType: FillType;
  takerPrice: number;
  makerPrice: number;
}

/** The engine's money for `quantity` between the two orders, from their running totals (not mutated). */
export function settlementMoney(
  type: FillType,
  taker: { message: OrderMessage; totals: OrderTotals },
  maker: { message: OrderMessage; totals: OrderTotals },
  quantity: bigint,
  prices: { takerPrice: number; makerPrice: number },
  fees: FeeConfig,
): SettlementMoney {
  const takerLeg = { notional: taker.totals.notional, usdc: taker.totals.usdc };
  const makerLeg = { notional: maker.totals.notional, usdc: maker.totals.usdc };
  // The taker fee is cumulative over the order's taking fills: the engine passes the order's USDC
  // within its placement, which is exactly its fills as taker.
  const money = fillMoney(
    type,
    taker.message.side,
    takerLeg,
    makerLeg,
    quantity,
    prices.takerPrice,
    prices.makerPrice,
    taker.totals.takerUsdc,
    fees,
  );
  return { ...money, fillType: type, ...prices };
}

/** The order's totals after a fill in which it moved `usdc` principal at `price`. */
export function afterFill(
  t: OrderTotals,
  f: { quantity: bigint; price: number; usdc: bigint; asTaker: boolean; fee: bigint; rebate: bigint },
): OrderTotals {
  return {
    filled: t.filled + f.quantity,
    notional: t.notional + f.quantity * BigInt(f.price),
    usdc: t.usdc + f.usdc,
    takerUsdc: t.takerUsdc + (f.asTaker ? f.usdc : 0n),
    feesPaid: t.feesPaid + f.fee,
    rebates: t.rebates + f.rebate,
    fills: t.fills + 1,
  };
}

/**
 * The buyer's signed limit, independently of the formulas: over all its settled fills a buy has
 * paid at most ceil(filled × limit / 10000) + 1 (the one raw unit a complementary fill may ask of
 * it, the slack `orderNeed` holds), so it never spends more than it committed. A seller has no
 * such guard: what it receives is the engine's floor of its own notional, capped in a direct fill
 * by what the buyer pays for it, and those caps can leave it more than one raw unit below
 * floor(filled × limit / 10000) after many tiny fills (docs/programs.md, "settle").
 */
export function withinSignedLimit(message: OrderMessage, totals: OrderTotals): boolean {
  return message.side === 'sell' || totals.usdc <= ceilDiv(totals.filled * BigInt(message.priceBps), BPS) + 1n;
}
