/**
 * This process's event-loop delay between two reads: how late a timer due every `RESOLUTION_MS`
 * fired, p99 and mean, in microseconds — what a request or a job would have waited. Measured
 * with our own timer into a plain histogram rather than perf_hooks' monitorEventLoopDelay: that
 * one drops the first gap after a reset, so a stall overlapping a read went unseen.
 */
import { createHistogram } from 'node:perf_hooks';

const RESOLUTION_MS = 10;

export interface LoopLag {
  p99Us: number;
  meanUs: number;
}

export interface LoopLagMeter {
  /** The delay since the previous read (or the start), then starts a new interval. */
  read(): LoopLag | undefined;
  stop(): void;
}

export function startLoopLagMeter(): LoopLagMeter {
  const histogram = createHistogram();
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    // record() takes integers ≥ 1: an on-time fire counts as 1 µs late.
    histogram.record(Math.max(1, Math.round((now - last - RESOLUTION_MS) * 1_000)));
    last = now;
  }, RESOLUTION_MS);
  timer.unref();
  return {
    read() {
      if (histogram.count === 0) return undefined;
      const lag = { p99Us: histogram.percentile(99), meanUs: Math.round(histogram.mean) };
      histogram.reset();
      return lag;
    },
    stop() {
      clearInterval(timer);
    },
  };
}
