/**
 * Money of a fill. Every division rounds against the user it concerns and nothing is created or
 * lost: what users pay equals what users receive plus what the vault takes in (minting) or pays
 * out (merging) plus the protocol's share (protocolFee + roundingDust). See docs/family-c-engine.md.
 *
 * Each order rounds cumulatively: it remembers `notional` = Σ quantity × priceBps of its fills
 * and `usdc` = what it has paid (buy) or received (sell). A payer's leg brings its total to
 * ceil(notional / 10000); a receiver's leg brings it to at most floor(notional / 10000). So a
 * resting buy never pays more over all its fills than the `ceil(remaining × price / 10000)` it
 * committed, however many small fills it takes.
 */
import { BPS, type FeeConfig, type FillType, type Side } from './order-types.js';

export function ceilDiv(a: bigint, b: bigint): bigint {
  return a <= 0n ? 0n : (a + b - 1n) / b;
}

/** BigInt of every tick, so the hot path does not convert prices again and again. */
const PRICE = Array.from({ length: 10_001 }, (_, p) => BigInt(p));

/** 2^30: below it `x | 0` is exact for a non-negative integer x and V8 keeps it as a small integer (a Smi). */
const SMALL_INT = 2 ** 30;

/** Below this, remaining × priceBps (≤ 10000) stays under 2^53: exact in a double. */
const EXACT_IN_DOUBLE = 900_000_000_000n;
const EXACT_IN_DOUBLE_N = Number(EXACT_IN_DOUBLE);

/**
 * The public `committedAmount` of a buy: ceil(remaining × priceBps / 10000) USDC. Computed in
 * doubles while exact (every resting buy pays this once, and bigint arithmetic allocates at each
 * step): n = remaining × price is an exact integer, n % 10000 is exact, and n − rest is a multiple
 * of 10000, so the division is exact too. Example: 3_333_333 at 6000 → n = 19_999_998_000,
 * rest 8000, (n − 8000) / 10000 = 1_999_999, + 1 = 2_000_000.
 */
export function buyCommitment(remaining: bigint, priceBps: number): bigint {
  if (remaining < EXACT_IN_DOUBLE) return BigInt(buyCommitmentOf(Number(remaining), priceBps));
  return (remaining * PRICE[priceBps]! + 9_999n) / BPS;
}

/**
 * `buyCommitment` of a remaining quantity held as a number (the engine's order nodes: exact, as
 * the engine caps quantities at 10^14 raw units, below 2^53). The result is at most `remaining`.
 */
export function buyCommitmentOf(remaining: number, priceBps: number): number {
  if (remaining < EXACT_IN_DOUBLE_N) {
    const n = remaining * priceBps;
    const rest = n % 10_000;
    const commitment = (n - rest) / 10_000 + (rest > 0 ? 1 : 0);
    // An integer held as a boxed double (n above 2^31 makes it one before optimization) would
    // turn every order node's `committed` field into a boxed double: one more object per
    // resting order for the garbage collector to copy. `| 0` gives the small integer V8 stores
    // unboxed; exact, as the value is an integer below 2^30 there.
    return commitment < SMALL_INT ? commitment | 0 : commitment;
  }
  return Number(buyCommitment(BigInt(remaining), priceBps)); // rare: 9 × 10^11 raw units and more
}

/** What a resting order commits: a buy its `buyCommitment` USDC, a sell its remaining tokens. */
export function restingCommitment(side: Side, priceBps: number, remaining: bigint): bigint {
  return side === 'buy' ? buyCommitment(remaining, priceBps) : remaining;
}

export interface OrderNeed {
  usdc: bigint;
  tokens: bigint;
}

/**
 * What an incoming order may consume at most, to check against `balance − committed` before
 * placing it. A buy: its principal cap P = ceil(quantity × priceBps / 10000), one raw unit of
 * rounding slack (a complementary fill may ask the taker for the unit the two floors leave
 * short), and the taker fee on that: ceil((P + 1) × takerFeeBps / 10000). A sell: its tokens;
 * the taker fee of a sell comes out of its proceeds (ceil(u × fee) ≤ u for u ≥ 1), so it holds
 * no USDC.
 * A postOnly buy never takes (the engine refuses it when it would cross), so it never pays a
 * taker fee nor the taker's slack unit: it needs exactly what it commits once resting,
 * ceil(quantity × priceBps / 10000). Example: 10 YES at 6000 commits 6_000_000; as postOnly it
 * needs 6_000_000, as a plain limit order 6_000_001 + ceil(6_000_001 × 25 / 10000) = 6_015_002.
 */
export function orderNeed(side: Side, priceBps: number, quantity: bigint, fees: FeeConfig, postOnly = false): OrderNeed {
  if (side === 'sell') return { usdc: 0n, tokens: quantity };
  if (postOnly) return { usdc: buyCommitment(quantity, priceBps), tokens: 0n };
  const principal = buyCommitment(quantity, priceBps) + 1n;
  return { usdc: principal + ceilDiv(principal * fees.takerFeeBps, BPS), tokens: 0n };
}

export interface Leg {
  notional: bigint;
  usdc: bigint;
}

function payerLeg(order: Leg, add: bigint): bigint {
  const owed = ceilDiv(order.notional + add, BPS) - order.usdc;
  return owed > 0n ? owed : 0n;
}

function receiverLeg(order: Leg, add: bigint): bigint {
  return (order.notional + add) / BPS - order.usdc;
}

export interface FillMoney {
  takerUsdc: bigint;
  makerUsdc: bigint;
  takerFee: bigint;
  makerRebate: bigint;
  protocolFee: bigint;
  roundingDust: bigint;
}

/**
 * Computes both legs of a fill of `quantity` and applies them to the two orders' running totals.
 * `takerPrice` and `makerPrice` are each in the order's own outcome (equal for direct fills,
 * summing to 10000 otherwise). `takerFeeBase` is the taker's USDC over this placement before
 * the fill; the taker fee is cumulative on it (ceil of the total) so splitting a taker into
 * many fills never costs more than one fill would.
 */
export function fillMoney(
  type: FillType,
  takerSide: Side,
  taker: Leg,
  maker: Leg,
  quantity: bigint,
  takerPrice: number,
  makerPrice: number,
  takerFeeBase: bigint,
  fees: FeeConfig,
): FillMoney {
  const tAdd = quantity * PRICE[takerPrice]!;
  const mAdd = quantity * PRICE[makerPrice]!;
  let t: bigint;
  let m: bigint;
  let dust: bigint;
  if (type === 'direct') {
    if (takerSide === 'buy') {
      t = payerLeg(taker, tAdd);
      m = receiverLeg(maker, mAdd);
      if (m > t) m = t;
      dust = t - m;
    } else {
      t = receiverLeg(taker, tAdd);
      m = payerLeg(maker, mAdd);
      if (t > m) t = m;
      dust = m - t;
    }
  } else if (type === 'complementary') {
    // Both pay into the vault, which mints `quantity` sets for exactly `quantity` USDC.
    t = payerLeg(taker, tAdd);
    m = payerLeg(maker, mAdd);
    if (t + m < quantity) t = quantity - m;
    dust = t + m - quantity;
  } else {
    // Both are paid by the vault, which merges `quantity` sets and releases `quantity` USDC.
    t = receiverLeg(taker, tAdd);
    m = receiverLeg(maker, mAdd);
    let excess = t + m - quantity;
    if (excess > 0n) {
      const cut = excess < t ? excess : t;
      t -= cut;
      excess -= cut;
      m -= excess;
    }
    dust = quantity - t - m;
  }
  taker.notional += tAdd;
  taker.usdc += t;
  maker.notional += mAdd;
  maker.usdc += m;
  const takerFee = ceilDiv((takerFeeBase + t) * fees.takerFeeBps, BPS) - ceilDiv(takerFeeBase * fees.takerFeeBps, BPS);
  let makerRebate = (t * fees.makerRebateBps) / BPS;
  // With configurable rates the rebate could exceed a tiny fill's fee; the protocol never pays.
  if (makerRebate > takerFee) makerRebate = takerFee;
  return { takerUsdc: t, makerUsdc: m, takerFee, makerRebate, protocolFee: takerFee - makerRebate, roundingDust: dust };
}
