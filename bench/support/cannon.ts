/**
 * autocannon as the benches use it: a promise, a summary (requests per second from the total and
 * the elapsed time, latency percentiles, anything that was not a 2xx), and interleaved
 * repetitions of two sides so that the load other processes put on this shared machine falls on
 * both sides alike. autocannon does not cap the server the way a Node keep-alive agent loop does
 * (that loop topped out near 20k req/s, flattering every ratio against a fast baseline).
 */
import autocannon from 'autocannon';

export function cannon(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => autocannon(opts, (err, result) => (err ? reject(err) : resolve(result))));
}

export interface Rate {
  rps: number;
  p50: number;
  p99: number;
  /** Responses that were not 2xx plus socket errors and timeouts: each run must have none. */
  failures: number;
}

export function rateOf(result: autocannon.Result): Rate {
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * `reps` rounds of both sides, the order swapped every round (ours first, then the baseline
 * first, ...); returns every round's measurements and the median of the per-round ratios.
 */
export async function interleaved<T>(
  reps: number,
  ours: () => Promise<T>,
  baseline: () => Promise<T>,
  ratio: (ours: T, baseline: T) => number,
): Promise<{ ours: T[]; baseline: T[]; ratio: number }> {
  const o: T[] = [];
  const b: T[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < reps; round++) {
    let x: T;
    let y: T;
    if (round % 2 === 0) {
      x = await ours();
      y = await baseline();
    } else {
      y = await baseline();
      x = await ours();
    }
    o.push(x);
    b.push(y);
    ratios.push(ratio(x, y));
  }
  return { ours: o, baseline: b, ratio: median(ratios) };
}

/**
 * Several sides measured in the same rounds, each round starting one side later (ours, bare, floor;
 * then bare, floor, ours; …): a ratio of two sides divides rates taken seconds apart, in the same
 * machine state, rather than minutes apart. Returns each side's results in round order.
 */
export async function rotated<T>(reps: number, sides: Array<() => Promise<T>>): Promise<T[][]> {
  const results = sides.map((): T[] => []);
  for (let round = 0; round < reps; round++) {
    for (let k = 0; k < sides.length; k++) {
      const side = (round + k) % sides.length;
      results[side]!.push(await sides[side]!());
    }
  }
  return results;
}

/** The median over rounds of one side's rate over another's, from `rotated`'s results. */
export function medianRatio(a: Array<{ rps: number }>, b: Array<{ rps: number }>): number {
  return median(a.map((x, i) => x.rps / b[i]!.rps));
}
