/** buyCommitment's double fast path against the bigint formula, at and around its boundary. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buyCommitment } from '../../../src/domain/orderbook/index.js';

const reference = (remaining: bigint, priceBps: number) => (remaining * BigInt(priceBps) + 9_999n) / 10_000n;

describe('buyCommitment', () => {
  it('is ceil(remaining × price / 10000) (worked examples)', () => {
    expect(buyCommitment(3_333_333n, 6000)).toBe(2_000_000n); // 1_999_999.8 → 2_000_000
    expect(buyCommitment(10_000_000n, 6000)).toBe(6_000_000n); // exact
    expect(buyCommitment(1n, 1)).toBe(1n); // 0.0001 → 1
    expect(buyCommitment(0n, 5000)).toBe(0n);
    // Around 2^30 = 1_073_741_824 (below it the fast path returns a small integer):
    expect(buyCommitment(1_073_741_823n, 10_000)).toBe(1_073_741_823n);
    expect(buyCommitment(1_073_741_824n, 10_000)).toBe(1_073_741_824n);
    expect(buyCommitment(2_147_483_649n, 5000)).toBe(1_073_741_825n); // 1_073_741_824.5 → up
    expect(buyCommitment(4_294_967_296n, 10_000)).toBe(4_294_967_296n); // 2^32: | 0 would give 0
  });

  it("equals the bigint formula for every remaining and price, across the fast path's boundary", () => {
    const remaining = fc.oneof(
      fc.bigInt({ min: 0n, max: 10n ** 12n }),
      fc.bigInt({ min: 899_999_999_000n, max: 900_000_001_000n }),
      // Commitments around 2^30, where the number path switches from `| 0` to a plain double.
      fc.bigInt({ min: (1n << 30n) - 10_000n, max: (1n << 30n) + 10_000n }),
      fc.bigInt({ min: 10_737_418_000n, max: 10_737_419_000n }),
      fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
    );
    fc.assert(
      fc.property(remaining, fc.integer({ min: 1, max: 10_000 }), (r, p) => buyCommitment(r, p) === reference(r, p)),
      { numRuns: 20_000 },
    );
  });
});
