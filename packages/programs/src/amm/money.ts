/**
 * Raw-unit integer helpers. Every division names its rounding; callers choose the direction that
 * goes against the user (floor what they receive, ceil what they pay).
 */
import { U64_MAX } from '../shared/integers.js';
import { AmmError } from './errors.js';

export const BPS_DENOMINATOR = 10_000n;

/** floor(a × b / d) for non-negative a, b and positive d. */
export function mulDivFloor(a: bigint, b: bigint, d: bigint): bigint {
  if (d <= 0n || a < 0n || b < 0n) throw new AmmError('InvalidArgument', 'mulDiv needs a, b ≥ 0 and d > 0');
  return (a * b) / d;
}

/** ceil(a × b / d) for non-negative a, b and positive d. */
export function mulDivCeil(a: bigint, b: bigint, d: bigint): bigint {
  if (d <= 0n || a < 0n || b < 0n) throw new AmmError('InvalidArgument', 'mulDiv needs a, b ≥ 0 and d > 0');
  return (a * b + d - 1n) / d;
}

/** ceil(n / d) for n ≥ 0, d > 0. */
export function divCeil(n: bigint, d: bigint): bigint {
  return mulDivCeil(n, 1n, d);
}

/** A fee in basis points that the user pays: rounded up. */
export function bpsCeil(amount: bigint, bps: bigint): bigint {
  return mulDivCeil(amount, bps, BPS_DENOMINATOR);
}

/** floor(√n) by Newton's method (exact for any size). */
export function sqrtFloor(n: bigint): bigint {
  if (n < 0n) throw new AmmError('InvalidArgument', 'square root of a negative number');
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n)))) + 1n;
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) break;
    x = y;
  }
  while (x * x > n) x -= 1n;
  while ((x + 1n) * (x + 1n) <= n) x += 1n;
  return x;
}

/** ceil(√n). */
export function sqrtCeil(n: bigint): bigint {
  const r = sqrtFloor(n);
  return r * r === n ? r : r + 1n;
}

/** Every stored amount is an on-chain u64: refuse anything that would not fit. */
export function assertU64(value: bigint, what: string): bigint {
  if (value < 0n || value > U64_MAX) throw new AmmError('MathOverflow', `${what} does not fit in a u64`);
  return value;
}
