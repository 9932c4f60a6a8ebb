/**
 * Redis frozen (SIGSTOP: the socket stays open, nothing answers) and then killed, while clients
 * read and write through a real daemon on a private redis-server of this test (the machine's
 * shared Redis is never touched): reads that need no Redis keep answering, and so do writes,
 * which this single process (api and worker roles) builds itself without the queue (an API-only
 * node answers them 503: test/jobs/tx-build.test.ts); nothing hangs, the daemon never exits,
 * /metrics keeps answering with `pmx_ready_check{check="redis"} 0` (the queue depths it cannot
 * read left out), and its Redis-backed parts recover within 2 s of Redis returning.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../src/infra/free-port.js';
import { tempDir } from '../helpers/databases.js';
import { sample } from '../helpers/metrics-text.js';
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
const metrics = () => timed(() => fetch(`${base}/metrics`));
const redisCheck = (body: string) => sample(body, 'pmx_ready_check', { check: 'redis' });
const queueDepth = (body: string) => sample(body, 'pmx_queue_jobs', { queue: 'tx-build', state: 'waiting' });

/**
 * While Redis is away every scrape answers (within the readiness check's 2 s timeout, not a hang),
 * and within a scrape or two (a check is reused for 500 ms) says so, leaving out the queue depths.
 */
async function expectRedisAwayInMetrics(): Promise<void> {
  const since = Date.now();
  let m = await metrics();
  for (;;) {
    expect(m.status).toBe(200);
    expect(m.ms).toBeLessThan(4_000);
    if (redisCheck(m.body) === 0 || Date.now() - since > 5_000) break;
    m = await metrics();
  }
  expect(redisCheck(m.body)).toBe(0);
  expect(sample(m.body, 'pmx_ready_check', { check: 'database' })).toBe(1);
  expect(queueDepth(m.body)).toBeUndefined();
}

/** Scrapes until Redis reads as back (its check and the queue depths); returns how long that took. */
async function metricsRecover(since: number, withinMs: number): Promise<number> {
  let last = await metrics();
  while (!(redisCheck(last.body) === 1 && queueDepth(last.body) !== undefined) && Date.now() - since < withinMs) {
    await new Promise((r) => setTimeout(r, 100));
    last = await metrics();
  }
  expect(last.status).toBe(200);
  expect(redisCheck(last.body)).toBe(1);
  expect(queueDepth(last.body)).toBeGreaterThanOrEqual(0);
  return Date.now() - since;
}
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
  it('frozen: reads and locally built writes answer within 2 s, metrics say Redis is away; thawed: everything answers again within 2 s', async () => {
    redis.kill('SIGSTOP');
    try {
      for (const r of [await read(), await config()]) {
        expect(r.status).toBe(200);
        expect(r.ms).toBeLessThan(1_500);
      }
      const w = await write();
      expect(w.status).toBe(200);
      expect(w.ms).toBeLessThan(2_000);
      await expectRedisAwayInMetrics();
    } finally {
      redis.kill('SIGCONT');
    }
    expect(await metricsRecover(Date.now(), 5_000)).toBeLessThan(2_000 + 1_500);
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
    await expectRedisAwayInMetrics();
    redis = await startRedis(redisPort, tempDir('pmx-redis-fault-'));
    expect(await metricsRecover(Date.now(), 8_000)).toBeLessThan(2_000 + 1_500);
    expect((await write()).status).toBe(200);
  });
});
