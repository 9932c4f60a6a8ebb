/**
 * The process guard in a real child process (an unhandled rejection or uncaught exception there
 * would otherwise end it): both are logged and counted and the process keeps running; an error
 * storm exits with 70 for a clean restart.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function run(script: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=pmx-source', '--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out }));
  });
}

const PRELUDE = `
import { pino } from 'pino';
import { installProcessGuard } from './src/infra/process-guard.ts';
const counts = {};
const log = pino({ level: 'error' }, process.stdout);
`;

describe('process guard', () => {
  it('survives an unhandled rejection and an uncaught exception, counting each', async () => {
    const { code, out } = await run(`${PRELUDE}
installProcessGuard({ log, count: (k) => (counts[k] = (counts[k] ?? 0) + 1) });
Promise.reject(new Error('stray rejection'));
setTimeout(() => { throw new Error('stray throw'); }, 10);
setTimeout(() => { console.log('ALIVE ' + JSON.stringify(counts)); process.exit(0); }, 200);
`);
    expect(code).toBe(0);
    expect(out).toContain('ALIVE {"unhandled_rejection":1,"uncaught_exception":1}');
    expect(out).toContain('stray rejection');
    expect(out).toContain('stray throw');
  }, 30_000);

  it('exits 70 on an error storm', async () => {
    const { code, out } = await run(`${PRELUDE}
installProcessGuard({ log, count: () => {}, maxPerMinute: 5 });
for (let i = 0; i < 10; i++) Promise.reject(new Error('storm ' + i));
setTimeout(() => { console.log('STILL HERE'); process.exit(0); }, 500);
`);
    expect(code).toBe(70);
    expect(out).not.toContain('STILL HERE');
  }, 30_000);
});
