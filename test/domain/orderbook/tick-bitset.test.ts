import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TickBitset } from '../../../src/domain/orderbook/tick-bitset.js';

describe('TickBitset', () => {
  it('finds neighbours like a linear scan does', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 10_000 }), { maxLength: 40 }), fc.integer({ min: -1, max: 10_001 }), (ticks, from) => {
        const bits = new TickBitset(10_001);
        for (const t of ticks) bits.set(t);
        for (const t of ticks.slice(0, ticks.length >> 1)) bits.clear(t);
        const live = new Set(ticks.slice(ticks.length >> 1));
        let up = -1;
        for (let t = Math.max(0, from); t <= 10_000; t++) if (live.has(t)) { up = t; break; }
        let down = -1;
        for (let t = Math.min(10_000, from); t >= 0; t--) if (live.has(t)) { down = t; break; }
        expect(bits.nextAtOrAbove(from)).toBe(up);
        expect(bits.nextAtOrBelow(from)).toBe(down);
      }),
      { numRuns: 500 },
    );
  });
});
