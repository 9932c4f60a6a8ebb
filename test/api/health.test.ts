/**
 * GET /health as every liveness probe sees it: the same fields and values, and every global duty
 * on it (the rate limit's headers, the latency metric), now that the handler answers in the
 * request's own turn and reads the uptime from performance.now()'s clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ readPerMinute: 3 });
});
afterAll(async () => t?.close());

describe('GET /health', () => {
  it('answers its fields, the uptime in whole seconds as process.uptime() rounds it', async () => {
    const before = Math.round(process.uptime());
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    const after = Math.round(process.uptime());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = res.json<{ status: string; version: string; startedAt: string; uptimeSeconds: number }>();
    expect(Object.keys(body)).toEqual(['status', 'version', 'startedAt', 'uptimeSeconds']);
    expect(body.status).toBe('ok');
    expect(body.version).toBe('test');
    expect(new Date(body.startedAt).toISOString()).toBe(body.startedAt);
    expect(Number.isInteger(body.uptimeSeconds)).toBe(true);
    expect(body.uptimeSeconds).toBeGreaterThanOrEqual(before);
    expect(body.uptimeSeconds).toBeLessThanOrEqual(after);
  });

  it('is rate limited and measured like every route', async () => {
    const statuses: number[] = [];
    let remaining: unknown;
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/health', remoteAddress: '10.9.8.7' });
      statuses.push(res.statusCode);
      if (i === 2) remaining = res.headers['x-ratelimit-remaining'];
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(remaining).toBe('0');
    const seen = (await t.metrics.httpDuration.get()).values.filter(
      (v) => v.labels.route === '/health' && v.labels.method === 'GET' && v.metricName?.endsWith('_count'),
    );
    expect(seen.reduce((sum, v) => sum + v.value, 0)).toBeGreaterThanOrEqual(4);
  });
});
