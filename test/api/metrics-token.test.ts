/**
 * GET /metrics behind METRICS_TOKEN: with a token configured a scrape without it, or with another
 * token, or with the token in another scheme, answers 401 in the system envelope (with a
 * WWW-Authenticate challenge) and the right bearer token answers 200; without one it is open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

const TOKEN = 'metrics-token-0123456789abcdef';

describe('the metrics token', () => {
  let guarded: TestApp;
  let open: TestApp;
  beforeAll(async () => {
    guarded = await createTestApp({ metricsToken: TOKEN });
    open = await createTestApp();
  });
  afterAll(async () => {
    await guarded?.close();
    await open?.close();
  });

  const scrape = (t: TestApp, authorization?: string) =>
    t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

  it('answers 401 without the token, with another one, or in another scheme', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, 'Bearer ', `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`]) {
      const res = await scrape(guarded, authorization);
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.json()).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: expect.stringContaining('METRICS_TOKEN') } });
      expect(res.body).not.toContain('pmx_');
    }
  });

  it('answers 200 with the bearer token', async () => {
    const res = await scrape(guarded, `Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toMatch(/^# HELP pmx_clob_orders_total /m);
  });

  it('is open when no token is configured', async () => {
    const res = await scrape(open);
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/^# HELP pmx_http_request_duration_seconds /m);
  });

  it('documents the token in the OpenAPI document', async () => {
    const doc = (await guarded.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.paths['/metrics'].get.security).toEqual([{ metricsToken: [] }]);
    expect(Object.keys(doc.paths['/metrics'].get.responses).sort()).toEqual(['200', '401', '503']);
  });
});
