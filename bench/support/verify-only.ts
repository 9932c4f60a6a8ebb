/**
 * Starts the placement benches' floor (verify-only-server.ts) in a process of its own, as the
 * daemon's API is, so that its CPU per order can be read from /proc like the daemon's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface VerifyOnlyServer {
  url: string;
  child: ChildProcess;
  stop(): void;
}

/** `durable`: also store and commit each order before answering (`sqlite:<file>` or a PostgreSQL URL; durable-floor.ts). */
export async function startVerifyOnlyServer(options: { durable?: string } = {}): Promise<VerifyOnlyServer> {
  const child = spawn(
    process.execPath,
    ['--conditions=pmx-source', '--import', 'tsx', new URL('./verify-only-server.ts', import.meta.url).pathname],
    { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...(options.durable ? { FLOOR_DURABLE: options.durable } : {}) } },
  );
  const stop = () => void child.kill('SIGTERM');
  try {
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`verify-only server exited with ${code}`)));
    });
    return { url, child, stop };
  } catch (error) {
    stop();
    throw error;
  }
}
