import { Writable } from 'node:stream';
import { pino } from 'pino';

/**
 * The daemon's logger: lines at `warn` and above are scanned for deadlocks (a job failed by one
 * logs it), and printed only when BENCH_LOG asks for them.
 */
export function countingLogger(): { log: pino.Logger; deadlockLines: () => number } {
  let deadlockLines = 0;
  const echo = process.env.BENCH_LOG !== undefined && process.env.BENCH_LOG !== 'silent';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const line = chunk.toString();
      if (/deadlock/i.test(line)) deadlockLines++;
      if (echo) process.stdout.write(line);
      done();
    },
  });
  const level = echo ? process.env.BENCH_LOG! : 'warn';
  return { log: pino({ level }, sink), deadlockLines: () => deadlockLines };
}
