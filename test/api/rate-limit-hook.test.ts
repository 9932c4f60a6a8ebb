/**
 * The synchronous rate-limit hook on the edges @fastify/rate-limit defined and the other rate-limit
 * tests do not reach: Redis away (served, full budget shown), a 404 counted on one shared key, the
 * per-request headers as they count down, and the wait worded as that plugin worded it.
 */
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { Type } from 'typebox';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.js';
import { waitText } from '../../src/api/plugins/rate-limit.hook.js';
import { createMetrics } from '../../src/infra/metrics.js';
import { createReadinessProbe } from '../../src/services/readiness.service.js';
import { createRedisConnection } from '../../jobs/redis-connection.js';
import { createTestApp, TEST_ADMIN_TOKEN } from '../helpers/app.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';
import { sqliteDatabase } from '../helpers/databases.js';
import type { FastifyInstance } from 'fastify';

async function sample(app: FastifyInstance): Promise<void> {
  app.get('/v2/clob/sample', async () => ({ ok: true }));
  app.post('/v2/clob/sample', { schema: { body: Type.Object({ n: Type.Integer() }) } }, async () => ({ ok: true }));
}

describe('rate-limit hook', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('serves every request while Redis is away, showing the whole budget and no wait (skipOnError)', async () => {
    const db = await sqliteDatabase();
    // The daemon's own limiter connection: fails fast, no offline queue, so every reservation errs.
    const redis = createRedisConnection('redis://127.0.0.1:1', 'ratelimit', 'rl-hook-away');
    const app = await buildApp({
      log: pino({ level: 'silent' }),
      version: 'test',
      redis,
      rateLimit: { readPerMinute: 2, writePerMinute: 1, nameSpace: 'rl-hook-away' },
      metrics: createMetrics(),
      adminToken: TEST_ADMIN_TOKEN,
      dashboardQueues: [],
      readiness: createReadinessProbe({ db: db.db, redis }),
      routes: [sample],
    });
    cleanups.push(
      () => app.close(),
      async () => redis.disconnect(),
      () => db.close(),
    );
    for (let i = 0; i < 5; i++) {
      const response = await app.inject({ method: 'GET', url: '/v2/clob/sample' });
      expect(response.statusCode).toBe(200);
      expect(response.headers).toMatchObject({ 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '2', 'x-ratelimit-reset': '0' });
      expect(response.headers['retry-after']).toBeUndefined();
    }
  });

  it('counts down in its headers, and counts a route refusing its body (400) like any answer', async () => {
    const t = await createTestApp({ routes: [sample], readPerMinute: 2, writePerMinute: 2 });
    cleanups.push(() => t.close());
    const first = await t.app.inject({ method: 'GET', url: '/v2/clob/sample', remoteAddress: '10.3.0.1' });
    expect(first.headers).toMatchObject({ 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '60' });
    const bad = await t.app.inject({ method: 'POST', url: '/v2/clob/sample', payload: { n: 'x' }, remoteAddress: '10.3.0.1' });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['x-ratelimit-remaining']).toBe('1');
  });

  it('limits unknown paths on one shared key per client, counting each request once', async () => {
    const t = await createTestApp({ readPerMinute: 2 });
    cleanups.push(() => t.close());
    const answers = [];
    for (const url of ['/nope-a', '/nope-b', '/nope-c'])
      answers.push(await t.app.inject({ method: 'GET', url, remoteAddress: '10.3.0.2' }));
    expect(answers.map((r) => r.statusCode)).toEqual([404, 404, 429]);
    expect(answers.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['1', '0', '0']);
    expect(answers[2]!.headers['retry-after']).toBe('60');
  });

  it('counts an API key apart from its address, GET and HEAD on one budget, and spendRateTokens on the same counter', async () => {
    // As Family A's key lookup: an onRequest hook of the routes' plugin sets apiKeyId before the limit runs.
    const keyed = async (app: FastifyInstance) => {
      app.addHook('onRequest', (request, _reply, done) => {
        const key = request.headers['x-test-key'];
        if (typeof key === 'string') (request as typeof request & { apiKeyId?: string }).apiKeyId = key;
        done();
      });
      app.get('/v2/clob/keyed', async () => ({ ok: true }));
      app.post('/v2/clob/keyed', async (request) => {
        await app.spendRateTokens(request, 2);
        return { ok: true };
      });
    };
    const t = await createTestApp({ routes: [keyed], readPerMinute: 3, writePerMinute: 3 });
    cleanups.push(() => t.close());
    const get = (method: 'GET' | 'HEAD', key?: string) =>
      t.app.inject({ method, url: '/v2/clob/keyed', remoteAddress: '10.3.0.3', headers: key ? { 'x-test-key': key } : {} });
    const byKey = [await get('GET', 'k1'), await get('HEAD', 'k1'), await get('GET', 'k1'), await get('HEAD', 'k1')];
    expect(byKey.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
    expect(byKey.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
    // The address and another key each have their own budget.
    expect((await get('GET')).headers['x-ratelimit-remaining']).toBe('2');
    expect((await get('HEAD', 'k2')).headers['x-ratelimit-remaining']).toBe('2');
    const key = `${t.prefix}:ratelimit:READ:/v2/clob/keyed:key:k1`;
    const client = new Redis(TEST_REDIS_URL);
    cleanups.push(async () => client.disconnect());
    expect(Number(await client.get(key))).toBeGreaterThanOrEqual(3);
    // One write plus two spent tokens use the whole budget of 3: the next write is refused.
    const post = () => t.app.inject({ method: 'POST', url: '/v2/clob/keyed', remoteAddress: '10.3.0.3', headers: { 'x-test-key': 'k1' } });
    expect((await post()).statusCode).toBe(200);
    expect((await post()).statusCode).toBe(429);
  });

  it('words the wait as @fastify/rate-limit did', () => {
    expect(waitText(0)).toBe('0 ms');
    expect(waitText(1)).toBe('1 second');
    expect(waitText(42)).toBe('42 seconds');
    expect(waitText(60)).toBe('1 minute');
    expect(waitText(150)).toBe('3 minutes');
  });
});
