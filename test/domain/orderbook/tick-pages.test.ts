// tick-pages.ts: a price grid stored in pages of 128 ticks, allocated only where ticks are used.
import { describe, expect, it } from 'vitest';
import { PAGE_SIZE, PagedTotals, TickPages } from '../../../src/domain/orderbook/tick-pages.js';
import { rng } from '../../helpers/rng.js';

describe('TickPages', () => {
  it('stores by tick across pages; tick 4,050 is page 31 slot 82; reads walk set ticks best first', () => {
    const pages = new TickPages<string>(10_001);
    expect(4050 >>> 7).toBe(31);
    expect(4050 & (PAGE_SIZE - 1)).toBe(82);
    pages.set(4050, 'a');
    pages.set(4000, 'b');
    pages.set(10_000, 'top');
    pages.set(1, 'bottom');
    pages.set(9000, undefined); // clearing a tick of a page never used allocates nothing
    expect(pages.get(4050)).toBe('a');
    expect(pages.get(4051)).toBeUndefined();
    expect(pages.get(9000)).toBeUndefined();
    const pair = (v: string, t: number) => `${t}:${v}`;
    expect(pages.collect(true, 10, pair)).toEqual(['10000:top', '4050:a', '4000:b', '1:bottom']);
    expect(pages.collect(false, 2, pair)).toEqual(['1:bottom', '4000:b']);
    pages.set(4050, undefined);
    expect(pages.collect(true, 10, pair)).toEqual(['10000:top', '4000:b', '1:bottom']);
  });

  it('agrees with a dense array under random sets and clears', () => {
    const random = rng(7);
    const pages = new TickPages<number>(10_001);
    const dense = new Array<number | undefined>(10_001);
    for (let i = 0; i < 20_000; i++) {
      const tick = Math.floor(random() * 10_001);
      const value = random() < 0.3 ? undefined : i;
      pages.set(tick, value);
      dense[tick] = value;
    }
    const expected = dense.flatMap((v, t) => (v === undefined ? [] : [[t, v]]));
    expect(pages.collect(false, Infinity, (v, t) => [t, v])).toEqual(expected);
    expect(pages.collect(true, 50, (v, t) => [t, v])).toEqual(expected.reverse().slice(0, 50));
  });
});

describe('PagedTotals', () => {
  it('keeps exact totals beyond 2^53 per tick: lo = 2^52 − 5, add 8 → 2^52 + 3; unused ticks total 0', () => {
    const totals = new PagedTotals(10_001);
    expect(totals.get(7_777)).toBe(0n);
    totals.add(5000, 2 ** 52 - 5);
    totals.add(5000, 8);
    expect(totals.get(5000)).toBe(2n ** 52n + 3n);
    totals.add(5000, -4);
    expect(totals.get(5000)).toBe(2n ** 52n - 1n);
    for (let i = 0; i < 3; i++) totals.add(10_000, 2 ** 52 - 1);
    expect(totals.get(10_000)).toBe(3n * (2n ** 52n - 1n));
    expect(totals.get(9_999)).toBe(0n);
  });
});
