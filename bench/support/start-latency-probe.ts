/** Starts bench/support/latency-probe.ts against `url` in a process of its own; `stop()` resolves with its latency summary (ms). */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface ProbeSummary {
  n: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
}

export async function startLatencyProbe(url: string, intervalMs = 5): Promise<{ stop(): Promise<ProbeSummary> }> {
  const child = spawn(
    process.execPath,
    ['--conditions=pmx-source', '--import', 'tsx', path.join(import.meta.dirname, 'latency-probe.ts'), url, String(intervalMs)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  if ((await lines.next()).value !== 'ready') throw new Error('latency probe did not start');
  return {
    async stop() {
      child.stdin!.end();
      return JSON.parse((await lines.next()).value as string) as ProbeSummary;
    },
  };
}
