/**
 * Redis frozen (SIGSTOP: the socket stays open, nothing answers) and then killed, while clients
 * read and write through a real daemon on a private redis-server of this test (the machine's
 * shared Redis is never touched): reads that need no Redis keep answering, and so do writes,
 * which this single process (api and worker roles) builds itself without the queue (an API-only
 * node answers them 503: test/jobs/tx-build.test.ts); nothing hangs, the daemon never exits,
 * and its Redis-backed parts (metrics' queue depths) recover within 2 s of Redis returning.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../src/infra/free-port.js';
import { tempDir } from '../helpers/databases.js';
import { openHarness, type BHarness } from '../family-b/family-b.harness.js';

let redis: ChildProcess;
let redisPort: number;
let h: BHarness;
let base: string;

async function startRedis(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`http://127.0.0.1:${port}`).then(
      () => true,
      (e: Error & { cause?: { code?: string } }) => e.cause?.code !== 'ECONNREFUSED',
    );
    if (up) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('redis-server did not start');
}

const timed = async (call: () => Promise<Response>) => {
  const started = Date.now();
  const res = await call();
  return { status: res.status, ms: Date.now() - started, body: await res.text() };
};
const read = () => timed(() => fetch(`${base}/health`));
const config = () => timed(() => fetch(`${base}/v2/config`));
const write = () =>
  timed(() =>
    fetch(`${base}/v2/markets/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        wallet: Keypair.generate().publicKey.toBase58(),
        title: 't',
        description: 'd',
        yesTicker: 'A',
        noTicker: 'B',
        resolutionTime: 2_000_000_000,
        seedAmount: 0,
        tradeFeeBps: 200,
      }),
    }),
  );

beforeAll(async () => {
  redisPort = await findFreePort();
  const dir = tempDir('pmx-redis-fault-');
  redis = await startRedis(redisPort, dir);
  h = await openHarness({ REDIS_URL: `redis://127.0.0.1:${redisPort}`, TX_BUILD_TIMEOUT_MS: '1500' });
  base = h.daemon.url!;
  expect((await write()).status).toBe(200); // healthy first
});
afterAll(async () => {
  redis?.kill('SIGCONT');
  await h?.close().catch(() => undefined);
  redis?.kill('SIGKILL');
});

describe('Redis faults', () => {
  it('frozen: reads and locally built writes answer within 2 s, metrics 503; thawed: everything answers again within 2 s', async () => {
    redis.kill('SIGSTOP');
    try {
      for (const r of [await read(), await config()]) {
        expect(r.status).toBe(200);
        expect(r.ms).toBeLessThan(1_500);
      }
      const w = await write();
      expect(w.status).toBe(200);
      expect(w.ms).toBeLessThan(2_000);
      expect((await timed(() => fetch(`${base}/metrics`))).status).toBe(503);
    } finally {
      redis.kill('SIGCONT');
    }
    const thawed = Date.now();
    let last = await timed(() => fetch(`${base}/metrics`));
    while (last.status !== 200 && Date.now() - thawed < 5_000) last = await timed(() => fetch(`${base}/metrics`));
    expect(last.status).toBe(200);
    expect(Date.now() - thawed).toBeLessThan(2_000 + 1_500);
    expect((await write()).status).toBe(200);
  });

  it('killed and restarted: the daemon keeps serving reads and locally built writes, and recovers', async () => {
    redis.kill('SIGKILL');
    await new Promise((r) => redis.once('exit', r));
    const r = await read();
    expect(r.status).toBe(200);
    const w = await write();
    expect(w.status).toBe(200);
    expect(w.ms).toBeLessThan(2_000);
    expect((await timed(() => fetch(`${base}/metrics`))).status).toBe(503);
    redis = await startRedis(redisPort, tempDir('pmx-redis-fault-'));
    const restarted = Date.now();
    let last = await timed(() => fetch(`${base}/metrics`));
    while (last.status !== 200 && Date.now() - restarted < 8_000) last = await timed(() => fetch(`${base}/metrics`));
    expect(last.status).toBe(200);
    expect(Date.now() - restarted).toBeLessThan(2_000 + 1_500);
    expect((await write()).status).toBe(200);
  });
});
