// End to end, standard x402 v2: the real daemon in one child process with its defaults (the
// embedded cluster announcing Solana devnet's id), the README's agent (`npm run example:x402`:
// @x402/fetch + @x402/svm, USDC and no SOL) in another.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReadyDaemon, type DaemonProcess } from '../daemon/daemon-process.js';
import { tempDir } from '../helpers/databases.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

const fixture = fileURLToPath(new URL('../../scripts/example-x402-agent.ts', import.meta.url));
const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
const ADMIN = 'x402-e2e-admin-token-0123456789';
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('standard x402 end to end (real daemon process, the example agent in another)', () => {
  let daemon: DaemonProcess;
  const prefix = uniquePrefix('x402-e2e');
  beforeAll(async () => {
    daemon = await startReadyDaemon(
      tempDir('pmx-x402-e2e-'),
      { REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: prefix, ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'warn' },
      '/v2/config',
      60_000,
    );
  }, 200_000);
  afterAll(async () => {
    if (daemon && daemon.child.exitCode === null) {
      daemon.child.kill('SIGTERM');
      await daemon.exited;
    }
    await deleteKeys(prefix);
  });

  it('an agent with USDC only buys and sells back through wrapped fetch', async () => {
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        tsx,
        ['--conditions=pmx-source', fixture],
        { env: { ...process.env, API_URL: daemon.url, ADMIN_TOKEN: ADMIN }, timeout: 90_000 },
        (err, out, errOut) =>
          err ? reject(new Error(`${err.message}\n${errOut}\n--- daemon ---\n${daemon.output().slice(-3000)}`)) : resolve(out),
      );
    });
    const r = JSON.parse(stdout.trim().split('\n').at(-1)!) as Json;
    expect(r.network).toBe('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1');
    expect(r.buy.status).toBe(200);
    expect(r.buy.receipt).toMatchObject({ success: true, network: r.network });
    expect(r.buy.body.data).toMatchObject({ tokenAmount: 3000, paymentTxHash: r.buy.receipt.transaction });
    expect(r.sell.status).toBe(200);
    expect(r.sell.body.data).toMatchObject({ usdcPayout: 0.5 });
    // 10 − 1.5 − 0.25 (its YES account had to be opened) + 0.5; 3000 − 1000 YES; never any SOL.
    expect(r.balances).toEqual({ usdc: '8750000', yes: '2000000000', lamports: 0 });
  }, 120_000);
});
