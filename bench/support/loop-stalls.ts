import { PerformanceObserver, constants, type PerformanceEntry } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
/**
 * Records the windows in which this process's event loop was held: a 1 ms timer chain whose
 * callbacks should follow each other within a few ms; a gap over `thresholdMs` is a loop held
 * for that long (one long turn, or a phase that ran many callbacks back to back). The windows
 * are CLOCK_MONOTONIC µs, as a `--cpu-prof` profile's, so profile-window.ts can say what ran
 * in them. Issue 31: the drain's rare 120 ms stalls of `/health`.
 */
export interface LoopStall {
  fromUs: number;
  toUs: number;
}

export function recordLoopStalls(thresholdMs = 40): { stop(): LoopStall[] } {
  const stalls: LoopStall[] = [];
  let last = process.hrtime.bigint() / 1000n;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = process.hrtime.bigint() / 1000n;
    if (Number(now - last) > thresholdMs * 1000) stalls.push({ fromUs: Number(last), toUs: Number(now) });
    last = now;
    timer = setTimeout(tick, 1);
  };
  timer = setTimeout(tick, 1);
  return {
    stop() {
      clearTimeout(timer);
      return stalls;
    },
  };
}

/** Major and minor GCs of this process while recording, with their summed pause (ms), and the heap at the end. */
export function recordGcs(): { stop(): string } {
  const counts = { major: 0, minor: 0, majorMs: 0, minorMs: 0, longestMs: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const major = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;
      counts[major ? 'major' : 'minor']++;
      counts[major ? 'majorMs' : 'minorMs'] += entry.duration;
      counts.longestMs = Math.max(counts.longestMs, entry.duration);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop() {
      observer.disconnect();
      const heap = getHeapStatistics();
      return (
        `${counts.major} major GCs (${counts.majorMs.toFixed(0)} ms), ${counts.minor} minor (${counts.minorMs.toFixed(0)} ms), longest ${counts.longestMs.toFixed(1)} ms; ` +
        `heap used ${(heap.used_heap_size / 2 ** 20).toFixed(0)} MiB of ${(heap.total_heap_size / 2 ** 20).toFixed(0)} MiB`
      );
    },
  };
}
