/**
 * Per-tick storage over the price grid (10,001 ticks) that allocates only the pages of ticks in
 * use: 128 ticks a page. A book's side used to hold a dense array of the whole grid (80 kB of
 * level pointers and 160 kB of size totals per side with orders, and 320 kB of mirrored sizes
 * per market on every API node): about a megabyte per market, kept as markets grow to thousands.
 * A side that quotes around one price now costs a page or two. Reading a tick is one more array
 * index than a dense array.
 *
 * Example: tick 4,050 lives at page 31 (4050 >>> 7), slot 82 (4050 & 127); a side with orders
 * at 4,000–4,100 allocates pages 31 and 32 only.
 */
export const PAGE_BITS = 7;
export const PAGE_SIZE = 1 << PAGE_BITS;
const MASK = PAGE_SIZE - 1;

export class TickPages<T> {
  private readonly pages: (Array<T | undefined> | undefined)[];

  constructor(readonly ticks: number) {
    this.pages = new Array<Array<T | undefined> | undefined>(Math.ceil(ticks / PAGE_SIZE)).fill(undefined);
  }

  get(tick: number): T | undefined {
    return this.pages[tick >>> PAGE_BITS]?.[tick & MASK];
  }

  set(tick: number, value: T | undefined): void {
    let page = this.pages[tick >>> PAGE_BITS];
    if (page === undefined) {
      if (value === undefined) return; // clearing a tick of a page never used
      page = this.pages[tick >>> PAGE_BITS] = new Array<T | undefined>(PAGE_SIZE).fill(undefined);
    }
    page[tick & MASK] = value;
  }

  /** The values set, by tick, from the highest (descending) or the lowest, at most `limit`; pages never used are skipped whole. */
  collect<R>(descending: boolean, limit: number, map: (value: T, tick: number) => R): R[] {
    const out: R[] = [];
    const n = this.pages.length;
    for (let k = 0; k < n && out.length < limit; k++) {
      const p = descending ? n - 1 - k : k;
      const page = this.pages[p];
      if (page === undefined) continue;
      for (let j = 0; j < PAGE_SIZE && out.length < limit; j++) {
        const slot = descending ? PAGE_SIZE - 1 - j : j;
        const value = page[slot];
        if (value !== undefined) out.push(map(value, (p << PAGE_BITS) | slot));
      }
    }
    return out;
  }
}

const TWO_52 = 2 ** 52;
const TWO_52N = 2n ** 52n;

/**
 * Exact integer totals per tick, paged like TickPages: each page one Float64Array holding, per
 * tick, total = hi × 2^52 + lo with 0 ≤ lo < 2^52 (wide-totals.ts explains the representation;
 * deltas are below 2^52 in magnitude). A tick of a page never used totals 0.
 */
export class PagedTotals {
  private readonly pages: (Float64Array | undefined)[];

  constructor(readonly ticks: number) {
    this.pages = new Array<Float64Array | undefined>(Math.ceil(ticks / PAGE_SIZE)).fill(undefined);
  }

  /** Adds `delta` (an integer, |delta| < 2^52) to the total of `tick`. Layout: lo at slot, hi at PAGE_SIZE + slot. */
  add(tick: number, delta: number): void {
    let page = this.pages[tick >>> PAGE_BITS];
    if (page === undefined) page = this.pages[tick >>> PAGE_BITS] = new Float64Array(2 * PAGE_SIZE);
    const slot = tick & MASK;
    let lo = page[slot]! + delta;
    if (lo >= TWO_52) {
      lo -= TWO_52;
      page[PAGE_SIZE + slot]! += 1;
    } else if (lo < 0) {
      lo += TWO_52;
      page[PAGE_SIZE + slot]! -= 1;
    }
    page[slot] = lo;
  }

  get(tick: number): bigint {
    const page = this.pages[tick >>> PAGE_BITS];
    if (page === undefined) return 0n;
    const slot = tick & MASK;
    const hi = page[PAGE_SIZE + slot]!;
    return hi === 0 ? BigInt(page[slot]!) : BigInt(hi) * TWO_52N + BigInt(page[slot]!);
  }
}
