import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bpsCeil, mulDivCeil, mulDivFloor, sqrtCeil, sqrtFloor, assertU64 } from '../../src/amm/index.js';
import { U64_MAX } from '../../src/index.js';

describe('money helpers', () => {
  it('rounds in the named direction', () => {
    expect(mulDivFloor(10n, 1n, 3n)).toBe(3n); // 3.33 → 3
    expect(mulDivCeil(10n, 1n, 3n)).toBe(4n); // 3.33 → 4
    expect(mulDivCeil(9n, 1n, 3n)).toBe(3n); // exact stays exact
    expect(bpsCeil(100_000_000n, 200n)).toBe(2_000_000n);
    expect(bpsCeil(1n, 200n)).toBe(1n); // a fee on dust is one raw unit, never zero
  });

  it('computes exact integer square roots', () => {
    expect(sqrtFloor(40_040n)).toBe(200n);
    expect(sqrtCeil(40_040n)).toBe(201n);
    expect(sqrtCeil(40_000n)).toBe(200n);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 1n << 140n }), (n) => {
        const r = sqrtFloor(n);
        expect(r * r <= n && (r + 1n) * (r + 1n) > n).toBe(true);
        const c = sqrtCeil(n);
        expect(c * c >= n && (c === 0n || (c - 1n) * (c - 1n) < n)).toBe(true);
      }),
    );
  });

  it('refuses amounts that do not fit a u64', () => {
    expect(assertU64(U64_MAX, 'x')).toBe(U64_MAX);
    expect(() => assertU64(U64_MAX + 1n, 'x')).toThrow(/u64/);
    expect(() => assertU64(-1n, 'x')).toThrow(/u64/);
  });
});
