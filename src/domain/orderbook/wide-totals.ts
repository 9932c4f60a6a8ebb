/**
 * Exact integer totals of any practical size, kept in two Float64Arrays: total = hi × 2^52 + lo
 * with 0 ≤ lo < 2^52. Adding a delta of magnitude below 2^52 is exact (lo + delta stays below
 * 2^53, where every integer is a double) and allocates nothing, where a BigUint64Array slot
 * allocates a bigint to read and another to add. The engine's deltas are order quantities and
 * commitments, capped at 10^14 raw units (MAX_ORDER_QUANTITY) — far below 2^52 ≈ 4.5 × 10^15.
 *
 * Example: lo = 2^52 − 5, add 8 → lo = 3, hi + 1 (total 2^52 + 3); add −4 → lo = 2^52 − 1, hi − 1.
 */
const TWO_52 = 2 ** 52;
const TWO_52N = 2n ** 52n;

export class WideTotals {
  private hi: Float64Array;
  private lo: Float64Array;

  constructor(size: number) {
    this.hi = new Float64Array(size);
    this.lo = new Float64Array(size);
  }

  get length(): number {
    return this.lo.length;
  }

  /** Adds `delta` (an integer, |delta| < 2^52) to total `i`. */
  add(i: number, delta: number): void {
    let lo = this.lo[i]! + delta;
    if (lo >= TWO_52) {
      lo -= TWO_52;
      this.hi[i]! += 1;
    } else if (lo < 0) {
      lo += TWO_52;
      this.hi[i]! -= 1;
    }
    this.lo[i] = lo;
  }

  get(i: number): bigint {
    const hi = this.hi[i]!;
    return hi === 0 ? BigInt(this.lo[i]!) : BigInt(hi) * TWO_52N + BigInt(this.lo[i]!);
  }

  isZero(i: number): boolean {
    return this.hi[i] === 0 && this.lo[i] === 0;
  }

  /** A copy with room for `size` totals (growing). */
  grown(size: number): WideTotals {
    const next = new WideTotals(size);
    next.hi.set(this.hi);
    next.lo.set(this.lo);
    return next;
  }
}
