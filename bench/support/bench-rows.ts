/**
 * A bench's headline rows, for the scale bench's table (bench/scale.bench.ts): with BENCH_ROWS=1
 * each row is also printed as one `#row {json}` line, which the scale bench reads from the
 * child's output. Memory is of the process that holds the daemon: this one (`ownMemory`) or a
 * daemon process read through its /metrics (`daemonMemory`).
 */
import fs from 'node:fs';

export interface BenchRow {
  bench: string;
  row: string;
  value: string;
  goal: string;
  met: boolean;
  rssMb?: number;
  heapMb?: number;
}

export const ROW_PREFIX = '#row ';

export function emitRow(row: BenchRow): void {
  if (process.env.BENCH_ROWS === '1') console.log(`${ROW_PREFIX}${JSON.stringify(row)}`);
}

export function ownMemory(): { rssMb: number; heapMb: number } {
  const m = process.memoryUsage();
  return { rssMb: m.rss / 2 ** 20, heapMb: m.heapUsed / 2 ** 20 };
}

/** A daemon process's resident memory (/proc) and V8 heap in use (its /metrics). */
export async function daemonMemory(pid: number, url: string): Promise<{ rssMb: number; heapMb: number }> {
  const rssMb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
  const metrics = await (await fetch(`${url}/metrics`)).text();
  const heap = /^nodejs_heap_size_used_bytes (\S+)$/m.exec(metrics);
  return { rssMb, heapMb: heap ? Number(heap[1]) / 2 ** 20 : Number.NaN };
}
