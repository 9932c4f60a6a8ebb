/**
 * Types of the pure matching engine (Family C). Money and quantities are bigint raw units
 * (6 decimals); prices are integer basis points of 1 USDC per outcome token (1–9999 for limit
 * orders, a market order's worst-price cap may be 10000). Field names follow the public order
 * and fill shapes so that repositories and the WebSocket feed can copy them through.
 */
import type { FeeConfig, FillType, Outcome, Side } from '@pmx/programs';

export { BPS } from '@pmx/programs';
export type { FeeConfig, FillType, Outcome, Side };
export type OrderType = 'limit' | 'market';
export type TimeInForce = 'gtc' | 'ioc' | 'fok';
export type OrderStatus = 'open' | 'partially_filled' | 'filled' | 'cancelled';

export const MAX_LIMIT_PRICE = 9999;
export const MAX_MARKET_PRICE = 10_000;

/** What a caller asks the engine to place (already signature-checked and validated by the service). */
export interface OrderRequest {
  id: string;
  owner: string;
  side: Side;
  outcome: Outcome;
  priceBps: number;
  quantity: bigint;
  /** Default `limit`. A market order is always IOC; its price is the worst price accepted. */
  orderType?: OrderType;
  /** Default `gtc` for limit orders; ignored (always `ioc`) for market orders. */
  timeInForce?: TimeInForce;
  /** Refused with WOULD_TAKE when any part would match on arrival. */
  postOnly?: boolean;
  /** Unix seconds; carried for `expire(now)`, not checked on placement. */
  expiry: number;
}

/** A resting order as the book holds it, and as snapshots and restores carry it. */
export interface RestingOrder {
  id: string;
  owner: string;
  side: Side;
  outcome: Outcome;
  priceBps: number;
  quantity: bigint;
  remaining: bigint;
  expiry: number;
  postOnly: boolean;
  /** Time priority: smaller is earlier. Unique per book. */
  seq: number;
  /** Σ filled quantity × price (bps) so far, for the order's cumulative rounding. */
  notional: bigint;
  /** USDC paid (buy) or received (sell) so far, before fees. */
  usdc: bigint;
}

export interface Fill {
  /** Per-book fill sequence (1, 2, …), continues across restores only if the caller restores it. */
  seq: number;
  makerOrderId: string;
  takerOrderId: string;
  makerOwner: string;
  takerOwner: string;
  takerSide: Side;
  /** The taker's outcome: `priceBps` and `usdcAmount` are in this outcome. */
  outcome: Outcome;
  priceBps: number;
  makerSide: Side;
  makerOutcome: Outcome;
  /** The maker's own limit price (its outcome); equals priceBps for direct fills, 10000 − priceBps otherwise. */
  makerPriceBps: number;
  fillType: FillType;
  quantity: bigint;
  /** The taker's USDC leg (paid when buying, received when selling), before fees. */
  usdcAmount: bigint;
  /** The maker's USDC leg (paid when buying, received when selling), before the rebate. */
  makerUsdc: bigint;
  takerFee: bigint;
  makerRebate: bigint;
  /** takerFee − makerRebate. */
  protocolFee: bigint;
  /** Raw units left over by rounding both legs against their users; credited to the protocol. */
  roundingDust: bigint;
}

export interface LevelDelta {
  outcome: Outcome;
  side: Side;
  priceBps: number;
  /** Aggregate remaining quantity at that level after the operation; 0n removes the level. */
  size: bigint;
}

export type CancelReason = 'self_trade' | 'user' | 'expired' | SystemCancelReason;
/**
 * Cancels the service makes on its own finding: the owner's smart wallet no longer covers the
 * order (`insufficient_balance`), or the chain refused the order's proof (`invalid_signature`).
 */
/**
 * Why the service (not the owner) cancelled an order: its wallet no longer covers it, its proof was refused, an operator
 * cancelled the market's resting orders, or the owner's dead-man's switch fired (no heartbeat before its deadline).
 */
export type SystemCancelReason = 'insufficient_balance' | 'invalid_signature' | 'operator' | 'heartbeat_expired';
/** Why a list of named orders is cancelled: their owner asked (cancel by ids), or a reason of the service's. */
export type ListCancelReason = 'user' | SystemCancelReason;

export interface CancelledOrder {
  order: RestingOrder;
  reason: CancelReason;
}

export interface OrderOutcome {
  id: string;
  status: OrderStatus;
  remaining: bigint;
  filled: bigint;
  /** True when the remainder rests on the book. */
  resting: boolean;
  /** What the resting remainder commits — USDC for a buy, tokens for a sell (public `committedAmount`); 0n when not resting. */
  committedAmount: bigint;
  /** USDC paid (buy) or received (sell) over this placement's fills, before fees. */
  usdc: bigint;
  takerFee: bigint;
}

/** Lists are read-only: empty ones are one shared frozen array (no allocation per order). */
export interface PlaceResult {
  order: OrderOutcome;
  fills: readonly Fill[];
  /** Resting orders whose remaining changed through fills (state after the fill). */
  makersChanged: readonly RestingOrder[];
  /** Resting orders removed without filling: self-trade prevention. */
  cancelled: readonly CancelledOrder[];
  levels: readonly LevelDelta[];
}

export const DEFAULT_FEES: FeeConfig = { takerFeeBps: 25n, makerRebateBps: 5n };

export interface BookLevel {
  priceBps: number;
  size: bigint;
  orders: number;
}

export interface OutcomeDepth {
  bids: BookLevel[];
  asks: BookLevel[];
}

export interface BookTop {
  bestBid: Record<Outcome, number | null>;
  bestAsk: Record<Outcome, number | null>;
  lastPrice: Record<Outcome, number | null>;
}
