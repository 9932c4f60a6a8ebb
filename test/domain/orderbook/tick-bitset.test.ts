import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TickBitset } from '../../../src/domain/orderbook/tick-bitset.js';

describe('TickBitset', () => {
  it('finds neighbours like a linear scan does', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 10_000 }), { maxLength: 40 }),
        fc.integer({ min: -1, max: 10_001 }),
        (ticks, from) => {
          const bits = new TickBitset(10_001);
          for (const t of ticks) bits.set(t);
          for (const t of ticks.slice(0, ticks.length >> 1)) bits.clear(t);
          const live = new Set(ticks.slice(ticks.length >> 1));
          let up = -1;
          for (let t = Math.max(0, from); t <= 10_000; t++)
            if (live.has(t)) {
              up = t;
              break;
            }
          let down = -1;
          for (let t = Math.min(10_000, from); t >= 0; t--)
            if (live.has(t)) {
              down = t;
              break;
            }
          expect(bits.nextAtOrAbove(from)).toBe(up);
          expect(bits.nextAtOrBelow(from)).toBe(down);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('crosses word and summary boundaries', () => {
    const bits = new TickBitset(10_001);
    for (const t of [0, 31, 32, 1023, 1024, 10_000]) bits.set(t);
    expect([bits.nextAtOrAbove(1), bits.nextAtOrAbove(33), bits.nextAtOrAbove(1025), bits.nextAtOrAbove(10_001)]).toEqual([
      31, 1023, 10_000, -1,
    ]);
    expect([bits.nextAtOrBelow(9_999), bits.nextAtOrBelow(1023), bits.nextAtOrBelow(30), bits.nextAtOrBelow(-1)]).toEqual([
      1024, 1023, 0, -1,
    ]);
    bits.clear(0);
    expect(bits.nextAtOrBelow(30)).toBe(-1);
  });
});
