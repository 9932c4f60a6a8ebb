/** Percentiles and summaries of latency samples, shared by the benches. */

/** The p-th percentile (0–100) by linear interpolation between closest ranks; samples need not be sorted. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error('percentile of no samples');
  if (p < 0 || p > 100) throw new Error(`percentile must be within 0..100, got ${p}`);
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

export interface Summary {
  n: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function summarize(samples: readonly number[]): Summary {
  return {
    n: samples.length,
    mean: samples.reduce((sum, v) => sum + v, 0) / samples.length,
    p50: percentile(samples, 50),
    p90: percentile(samples, 90),
    p99: percentile(samples, 99),
    max: Math.max(...samples),
  };
}

/** Milliseconds with three significant digits: 0.123, 1.23, 12.3, 123. */
export function formatMs(ms: number): string {
  return `${ms >= 100 ? ms.toFixed(0) : ms.toPrecision(3)} ms`;
}

/** Elapsed milliseconds of one awaited call, measured with the monotonic high-resolution clock. */
export async function timeMs(body: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await body();
  return Number(process.hrtime.bigint() - start) / 1e6;
}
