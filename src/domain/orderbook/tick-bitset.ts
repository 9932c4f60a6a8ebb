/**
 * A two-level bitset over price ticks 0..size-1: `words` holds one bit per tick, `summary` one
 * bit per non-empty word. Finding the next non-empty tick above or below a price touches at most
 * two summary words' worth of scanning plus one word, so the best price after a level empties
 * is found in O(size / 1024) word reads in the worst case (10 for 10,000 ticks), never by
 * walking empty levels one by one.
 */
export class TickBitset {
  private readonly words: Uint32Array;
  private readonly summary: Uint32Array;

  constructor(readonly size: number) {
    this.words = new Uint32Array(Math.ceil(size / 32));
    this.summary = new Uint32Array(Math.ceil(this.words.length / 32));
  }

  set(tick: number): void {
    const w = tick >>> 5;
    this.words[w]! |= 1 << (tick & 31);
    this.summary[w >>> 5]! |= 1 << (w & 31);
  }

  clear(tick: number): void {
    const w = tick >>> 5;
    const word = this.words[w]! & ~(1 << (tick & 31));
    this.words[w] = word;
    if (word === 0) this.summary[w >>> 5]! &= ~(1 << (w & 31));
  }

  has(tick: number): boolean {
    return (this.words[tick >>> 5]! & (1 << (tick & 31))) !== 0;
  }

  /** Smallest set tick ≥ from, or -1. */
  nextAtOrAbove(from: number): number {
    if (from < 0) from = 0;
    if (from >= this.size) return -1;
    let w = from >>> 5;
    const first = this.words[w]! & (~0 << (from & 31));
    if (first !== 0) return (w << 5) + lowestBit(first);
    w++;
    // Find the next non-empty word through the summary.
    let s = w >>> 5;
    if (s >= this.summary.length) return -1;
    let bits = (w & 31) === 0 ? this.summary[s]! : this.summary[s]! & (~0 << (w & 31));
    while (bits === 0) {
      s++;
      if (s >= this.summary.length) return -1;
      bits = this.summary[s]!;
    }
    w = (s << 5) + lowestBit(bits);
    return (w << 5) + lowestBit(this.words[w]!);
  }

  /** Largest set tick ≤ from, or -1. */
  nextAtOrBelow(from: number): number {
    if (from >= this.size) from = this.size - 1;
    if (from < 0) return -1;
    let w = from >>> 5;
    const shift = 31 - (from & 31);
    const first = shift === 0 ? this.words[w]! : this.words[w]! & (~0 >>> shift);
    if (first !== 0) return (w << 5) + highestBit(first);
    w--;
    if (w < 0) return -1;
    let s = w >>> 5;
    const sShift = 31 - (w & 31);
    let bits = sShift === 0 ? this.summary[s]! : this.summary[s]! & (~0 >>> sShift);
    while (bits === 0) {
      s--;
      if (s < 0) return -1;
      bits = this.summary[s]!;
    }
    w = (s << 5) + highestBit(bits);
    return (w << 5) + highestBit(this.words[w]!);
  }
}

function lowestBit(x: number): number {
  return 31 - Math.clz32(x & -x);
}

function highestBit(x: number): number {
  return 31 - Math.clz32(x);
}
