/**
 * The fixed-product market maker over YES/NO reserves (Gnosis FPMM). The market holds reserves of
 * both outcomes; one YES + one NO is always one USDC, so:
 * - a buy of side S with `x` USDC adds x complete sets to both reserves, then takes out of the S
 *   reserve what keeps yesReserve × noReserve ≥ k;
 * - a sell of `t` tokens of side S puts them into the S reserve, then removes `r` complete sets
 *   (paid as r USDC) so that (a − r)(b − r) ≥ k.
 * Each function returns the result and the reserves after the trade, like the Uniswap SDK `Pair`.
 * Rounding: the reserve the market keeps rounds up and the USDC it pays rounds down, so k never
 * decreases and no sequence of trades can extract value from rounding.
 */
import { AmmError } from './errors.js';
import { divCeil, sqrtCeil } from './money.js';
import type { OutcomeSide } from './types.js';

export interface Reserves {
  yesReserve: bigint;
  noReserve: bigint;
}

function split(r: Reserves, side: OutcomeSide): { own: bigint; other: bigint } {
  return side === 'YES' ? { own: r.yesReserve, other: r.noReserve } : { own: r.noReserve, other: r.yesReserve };
}

function join(side: OutcomeSide, own: bigint, other: bigint): Reserves {
  return side === 'YES' ? { yesReserve: own, noReserve: other } : { yesReserve: other, noReserve: own };
}

function assertLive(r: Reserves): void {
  if (r.yesReserve <= 0n || r.noReserve <= 0n) throw new AmmError('InsufficientLiquidity', 'empty AMM reserves');
}

/**
 * Buy `side` with `collateralIn` USDC (after fees). Worked example: reserves 100/100 (k = 10_000),
 * buy YES with 10 → NO = 110, YES kept = ceil(10_000 / 110) = 91, out = 100 + 10 − 91 = 19.
 */
export function ammBuy(r: Reserves, side: OutcomeSide, collateralIn: bigint): { tokensOut: bigint; next: Reserves } {
  assertLive(r);
  if (collateralIn <= 0n) throw new AmmError('AmountTooSmall', 'nothing to buy with');
  const { own, other } = split(r, side);
  const k = own * other;
  const otherNext = other + collateralIn;
  const ownKept = divCeil(k, otherNext); // the market keeps the rounding: the user gets the floor
  const tokensOut = own + collateralIn - ownKept;
  if (tokensOut <= 0n) throw new AmmError('AmountTooSmall', 'the buy yields no token');
  return { tokensOut, next: join(side, ownKept, otherNext) };
}

/**
 * Sell `tokensIn` of `side` for gross USDC r (before fees): with a = own + t, b = other,
 * r = (a + b − √((a − b)² + 4k)) / 2, the smaller root of (a − r)(b − r) = k. The square root
 * rounds up, so r rounds down. Worked example: reserves YES 91 / NO 110 (k = 10_010), sell 19 YES
 * → a = 110, b = 110, r = (220 − ⌈√40_040⌉) / 2 = (220 − 201) / 2 = 9 (floor of 9.5).
 */
export function ammSell(r: Reserves, side: OutcomeSide, tokensIn: bigint): { collateralOut: bigint; next: Reserves } {
  assertLive(r);
  if (tokensIn <= 0n) throw new AmmError('AmountTooSmall', 'nothing to sell');
  const { own, other } = split(r, side);
  const k = own * other;
  const a = own + tokensIn;
  const b = other;
  const diff = a - b;
  let out = (a + b - sqrtCeil(diff * diff + 4n * k)) / 2n;
  if (out < 0n) out = 0n;
  // The floor above already keeps (a − r)(b − r) ≥ k; this loop only guards that proof.
  while (out > 0n && (a - out) * (b - out) < k) out -= 1n;
  if (out <= 0n) throw new AmmError('AmountTooSmall', 'the sell yields no USDC');
  if (out >= b) throw new AmmError('InsufficientLiquidity', 'sell exceeds the reserves');
  return { collateralOut: out, next: join(side, a - out, b - out) };
}
