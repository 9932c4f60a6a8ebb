/**
 * The book's owner totals and level sizes are exact double pairs (hi × 2^52 + lo). Worked
 * example of the carry both ways, then random deltas up to the order cap against bigint sums,
 * far past 2^53 (where a single double would round).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_ORDER_QUANTITY } from '../../../src/domain/orderbook/index.js';
import { WideTotals } from '../../../src/domain/orderbook/wide-totals.js';

const TWO_52 = 2 ** 52;

describe('WideTotals', () => {
  it('carries into the high part and borrows back (worked example)', () => {
    const t = new WideTotals(2);
    t.add(0, TWO_52 - 5); // lo = 2^52 − 5
    t.add(0, 8); // lo would be 2^52 + 3: carry → hi 1, lo 3
    expect(t.get(0)).toBe(2n ** 52n + 3n);
    t.add(0, -4); // lo would be −1: borrow → hi 0, lo 2^52 − 1
    expect(t.get(0)).toBe(2n ** 52n - 1n);
    expect(t.isZero(1)).toBe(true);
    expect(t.get(1)).toBe(0n);
    t.add(0, -(TWO_52 - 1));
    expect(t.isZero(0)).toBe(true);
  });

  it('equals bigint sums of capped deltas, also past 2^53 and after growing', () => {
    const cap = Number(MAX_ORDER_QUANTITY);
    const delta = fc.integer({ min: -cap, max: cap });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), delta), { minLength: 1, maxLength: 300 }), (ops) => {
        let t = new WideTotals(2);
        const model = [0n, 0n, 0n, 0n];
        // Start two totals far past 2^53, as 500 resting orders of the cap would put them.
        for (const i of [0, 1]) {
          for (let k = 0; k < 500; k++) t.add(i, cap);
          model[i] = 500n * MAX_ORDER_QUANTITY;
        }
        t = t.grown(4);
        for (const [i, d] of ops) {
          if (model[i]! + BigInt(d) < 0n) continue; // totals never go below zero in the book
          t.add(i, d);
          model[i] = model[i]! + BigInt(d);
        }
        model.forEach((m, i) => expect(t.get(i)).toBe(m));
      }),
      { numRuns: 200 },
    );
  });
});
