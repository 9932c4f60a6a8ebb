import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.js';
import { MAX_BATCH_DIVISOR } from '../../src/api/plugins/rate-limit.store.js';
import { createMetrics } from '../../src/infra/metrics.js';
import { createReadinessProbe } from '../../src/services/readiness.service.js';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/app.js';
import { sqliteDatabase } from '../helpers/databases.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

async function sampleRoutes(app: FastifyInstance): Promise<void> {
  app.get('/v2/clob/sample-a', async () => ({ route: 'a' }));
  app.get('/v2/clob/sample-b', async () => ({ route: 'b' }));
  app.get('/v2/markets/:id/sample', { schema: { params: Type.Object({ id: Type.Integer() }) } }, async () => ({ success: true, data: {} }));
  app.post('/v2/markets/:id/sample', { schema: { params: Type.Object({ id: Type.Integer() }) } }, async () => ({
    success: true,
    data: {},
  }));
}

async function hit(
  app: FastifyInstance,
  times: number,
  request: { method: 'GET' | 'POST'; url: string; ip?: string },
): Promise<LightMyRequestResponse[]> {
  const responses: LightMyRequestResponse[] = [];
  for (let i = 0; i < times; i++) {
    responses.push(
      await app.inject({
        method: request.method,
        url: request.url,
        remoteAddress: request.ip ?? '10.0.0.1',
        payload: request.method === 'POST' ? {} : undefined,
      }),
    );
  }
  return responses;
}

function expectLimited(response: LightMyRequestResponse): void {
  expect(response.statusCode).toBe(429);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('rate limits (default 600 reads, 300 writes per minute per route and client)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ routes: [sampleRoutes] });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets 600 GETs through and answers the 601st with 429, Retry-After and the family envelope', async () => {
    const passed = await hit(t.app, 600, { method: 'GET', url: '/v2/clob/sample-a' });
    expect(passed.filter((r) => r.statusCode === 200)).toHaveLength(600);
    expect(passed[599]?.headers['x-ratelimit-remaining']).toBe('0');

    const [limited] = await hit(t.app, 1, { method: 'GET', url: '/v2/clob/sample-a' });
    expectLimited(limited!);
    expect(limited!.json()).toMatchObject({ error: 'RATE_LIMITED', message: expect.stringMatching(/600/) });

    const [otherRoute] = await hit(t.app, 1, { method: 'GET', url: '/v2/clob/sample-b' });
    expect(otherRoute!.statusCode).toBe(200);
    const [otherIp] = await hit(t.app, 1, { method: 'GET', url: '/v2/clob/sample-a', ip: '10.0.0.2' });
    expect(otherIp!.statusCode).toBe(200);
  });

  it('limits writes at 300 per minute, separately from reads of the same path', async () => {
    const passed = await hit(t.app, 300, { method: 'POST', url: '/v2/markets/7/sample', ip: '10.0.0.3' });
    expect(passed.filter((r) => r.statusCode === 200)).toHaveLength(300);

    const [limited] = await hit(t.app, 1, { method: 'POST', url: '/v2/markets/7/sample', ip: '10.0.0.3' });
    expectLimited(limited!);
    expect(limited!.json()).toMatchObject({ success: false, code: 'RATE_LIMITED', error: expect.stringMatching(/300/) });

    const [read] = await hit(t.app, 1, { method: 'GET', url: '/v2/markets/7/sample', ip: '10.0.0.3' });
    expect(read!.statusCode).toBe(200);
  });
});

describe('rate limits shared across API instances', () => {
  const nameSpace = uniquePrefix('shared-rl');
  const cleanups: Array<() => Promise<unknown>> = [];

  async function instance(): Promise<FastifyInstance> {
    const db = await sqliteDatabase();
    const redis = new Redis(TEST_REDIS_URL);
    const app = await buildApp({
      log: pino({ level: 'silent' }),
      version: 'test',
      redis,
      rateLimit: { readPerMinute: 10, writePerMinute: 5, nameSpace },
      metrics: createMetrics(),
      adminToken: TEST_ADMIN_TOKEN,
      dashboardQueues: [],
      readiness: createReadinessProbe({ db: db.db, redis }),
      routes: [sampleRoutes],
    });
    await app.ready();
    cleanups.push(
      () => app.close(),
      async () => redis.disconnect(),
      () => db.close(),
    );
    return app;
  }

  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
    await deleteKeys(nameSpace);
  });

  it('counts requests to either instance against one limit', async () => {
    const first = await instance();
    const second = await instance();
    const fromFirst = await hit(first, 6, { method: 'GET', url: '/v2/clob/sample-a' });
    const fromSecond = await hit(second, 4, { method: 'GET', url: '/v2/clob/sample-a' });
    expect([...fromFirst, ...fromSecond].every((r) => r.statusCode === 200)).toBe(true);
    expect(fromSecond[3]?.headers['x-ratelimit-remaining']).toBe('0');

    const [limitedOnFirst] = await hit(first, 1, { method: 'GET', url: '/v2/clob/sample-a' });
    const [limitedOnSecond] = await hit(second, 1, { method: 'GET', url: '/v2/clob/sample-a' });
    expectLimited(limitedOnFirst!);
    expectLimited(limitedOnSecond!);
  });
});

describe('rate limits across two API nodes: local batches reserved from Redis (tolerance: ≤ limit, ≥ limit − limit/20 per other node)', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  const LIMIT = 600;
  const TOLERANCE = LIMIT / MAX_BATCH_DIVISOR; // 30: the largest batch one other node may hold unused

  async function node(nameSpace: string): Promise<FastifyInstance> {
    const db = await sqliteDatabase();
    const redis = new Redis(TEST_REDIS_URL);
    const app = await buildApp({
      log: pino({ level: 'silent' }),
      version: 'test',
      redis,
      rateLimit: { readPerMinute: LIMIT, writePerMinute: 300, nameSpace },
      metrics: createMetrics(),
      adminToken: TEST_ADMIN_TOKEN,
      dashboardQueues: [],
      readiness: createReadinessProbe({ db: db.db, redis }),
      routes: [sampleRoutes],
    });
    await app.ready();
    cleanups.push(
      () => app.close(),
      async () => redis.disconnect(),
      () => db.close(),
      () => deleteKeys(nameSpace),
    );
    return app;
  }

  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  function expectEnvelope429(response: LightMyRequestResponse): void {
    expectLimited(response);
    expect(response.json()).toMatchObject({ error: 'RATE_LIMITED', message: expect.stringMatching(/600 requests per minute/) });
  }

  it('admits at most the limit, and at least limit − 30, to one client alternating between the nodes', async () => {
    const nameSpace = uniquePrefix('rl-two');
    const nodes = [await node(nameSpace), await node(nameSpace)];
    const responses: LightMyRequestResponse[] = [];
    for (let i = 0; i < LIMIT + 100; i++) responses.push(...(await hit(nodes[i % 2]!, 1, { method: 'GET', url: '/v2/clob/sample-a' })));
    const admitted = responses.filter((r) => r.statusCode === 200).length;
    expect(admitted).toBeLessThanOrEqual(LIMIT);
    expect(admitted).toBeGreaterThanOrEqual(LIMIT - TOLERANCE);
    const refused = responses.filter((r) => r.statusCode !== 200);
    expect(refused.length).toBe(responses.length - admitted);
    for (const r of refused) expectEnvelope429(r);
    // Once refused, the client stays refused on both nodes for the rest of the window.
    expect(responses.slice(-10).every((r) => r.statusCode === 429)).toBe(true);
  });

  it('holds the combined limit under a concurrent burst spread over both nodes', async () => {
    const nameSpace = uniquePrefix('rl-burst');
    const nodes = [await node(nameSpace), await node(nameSpace)];
    const burst = Array.from({ length: LIMIT + 300 }, (_, i) =>
      nodes[(i * 7919) % 3 === 0 ? 0 : 1]!.inject({ method: 'GET', url: '/v2/clob/sample-b', remoteAddress: '10.9.9.9' }),
    );
    const responses = await Promise.all(burst);
    const admitted = responses.filter((r) => r.statusCode === 200).length;
    expect(admitted).toBeLessThanOrEqual(LIMIT);
    expect(admitted).toBeGreaterThanOrEqual(LIMIT - TOLERANCE);
    for (const r of responses.filter((x) => x.statusCode !== 200)) expectEnvelope429(r);
  });

  it('a node sees what the other spent: after one node admitted the whole limit the other refuses at once', async () => {
    const nameSpace = uniquePrefix('rl-uneven');
    const [first, second] = [await node(nameSpace), await node(nameSpace)];
    const fromFirst = await hit(first!, LIMIT, { method: 'GET', url: '/v2/clob/sample-a', ip: '10.1.1.1' });
    expect(fromFirst.every((r) => r.statusCode === 200)).toBe(true);
    expect(fromFirst[LIMIT - 1]?.headers['x-ratelimit-remaining']).toBe('0');
    const [fromSecond] = await hit(second!, 1, { method: 'GET', url: '/v2/clob/sample-a', ip: '10.1.1.1' });
    expectEnvelope429(fromSecond!);
  });

  it('refuses a client past its limit without asking Redis again', async () => {
    const nameSpace = uniquePrefix('rl-local');
    const app = await node(nameSpace);
    await hit(app, LIMIT + 1, { method: 'GET', url: '/v2/clob/sample-a', ip: '10.2.2.2' });
    const redis = new Redis(TEST_REDIS_URL);
    try {
      const key = `${nameSpace}:ratelimit:READ:/v2/clob/sample-a:ip:10.2.2.2`;
      const counted = await redis.get(key);
      expect(Number(counted)).toBeGreaterThanOrEqual(LIMIT);
      const more = await hit(app, 50, { method: 'GET', url: '/v2/clob/sample-a', ip: '10.2.2.2' });
      for (const r of more) expectEnvelope429(r);
      expect(await redis.get(key)).toBe(counted);
    } finally {
      redis.disconnect();
    }
  });
});
