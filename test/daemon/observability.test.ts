/**
 * The whole daemon in process (every feature's routes): the OpenAPI document covers every route
 * of every family with a summary and tags, Swagger UI is served, /ready reports each dependency,
 * and /metrics exposes HTTP latency, queue depths and job outcomes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, openHarness, waitFor, type BHarness } from '../family-b/family-b.harness.js';

let h: BHarness;
beforeAll(async () => {
  h = await openHarness({ HEARTBEAT_INTERVAL_MS: '1000' });
});
afterAll(async () => {
  await h?.close();
});

interface Operation {
  summary?: string;
  tags?: string[];
}

describe('the daemon documents and reports itself', () => {
  it('lists every route of the three families in /openapi.json, each with a summary and a tag', async () => {
    const res = await get(h, '/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, Record<string, Operation>> };
    expect(doc.openapi).toMatch(/^3\./);
    const expected = [
      ['/health', 'get'],
      ['/ready', 'get'],
      ['/metrics', 'get'],
      ['/v2/config', 'get'],
      ['/v2/dev/faucet', 'post'],
      ['/v2/markets/create', 'post'],
      ['/v2/markets/confirm', 'post'],
      ['/v2/markets/{id}/init-mints', 'post'],
      ['/v2/markets/{id}/quote', 'get'],
      ['/v2/markets/{id}/buy', 'post'],
      ['/v2/markets/{id}/sell', 'post'],
      ['/v2/markets/{id}/resolve', 'post'],
      ['/v2/markets/{id}/redeem', 'post'],
      ['/v2/markets/{id}/claim-fees', 'post'],
      ['/v2/markets/{id}/cancel', 'post'],
      ['/v2/redeem-all', 'post'],
      ['/v2/claim-all-fees', 'post'],
      ['/v2/positions/{wallet}', 'get'],
      ['/v2/positions/{wallet}/{marketId}', 'get'],
      ['/v2/markets', 'get'],
      ['/v2/markets', 'post'],
      ['/v2/markets/search', 'get'],
      ['/v2/markets/{slug}', 'get'],
      ['/v2/markets/{slug}/details', 'get'],
      ['/v2/markets/{slug}/trade/buy', 'post'],
      ['/v2/markets/{slug}/trade/sell', 'post'],
      ['/v2/markets/{slug}/claim', 'post'],
      ['/v2/markets/{slug}/claim/confirm', 'post'],
      ['/v2/admin/markets', 'post'],
      ['/v2/admin/markets/{slug}/resolve', 'post'],
    ] as const;
    for (const [path, method] of expected) {
      expect(doc.paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();
    }
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        expect(op.summary, `${method} ${path} has a summary`).toBeTruthy();
        expect(op.tags?.length, `${method} ${path} has a tag`).toBeGreaterThan(0);
      }
    }
  });

  it('serves Swagger UI at /docs', async () => {
    const entry = await h.app.inject({ method: 'GET', url: '/docs' });
    expect([200, 302]).toContain(entry.statusCode);
    const page =
      entry.statusCode === 302
        ? await h.app.inject({ method: 'GET', url: new URL(String(entry.headers.location), 'http://x/docs/').pathname })
        : entry;
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toMatch(/swagger-ui/i);
  });

  it('reports database, Redis, workers and chain in /ready', async () => {
    const ready = await waitFor(
      'a ready daemon',
      async () => {
        const res = await get(h, '/ready');
        return res.statusCode === 200 ? (res.json() as { checks: Record<string, { ok: boolean; role?: string }> }) : undefined;
      },
      10_000,
    );
    expect(Object.keys(ready.checks).sort()).toEqual(['chain', 'database', 'matcher', 'matchers', 'redis', 'workers']);
    expect(ready.checks.matchers).toMatchObject({ ok: true, role: 'api' });
  });

  it('exposes HTTP latency by route, queue depths and job outcomes in /metrics', async () => {
    await get(h, '/v2/config');
    const text = await waitFor(
      'a completed heartbeat job in the metrics',
      async () => {
        const body = (await get(h, '/metrics')).body;
        return /pmx_jobs_total\{queue="system",job="system.heartbeat",outcome="completed"\} [1-9]/.test(body) ? body : undefined;
      },
      10_000,
    );
    expect(text).toMatch(/pmx_http_request_duration_seconds_count\{method="GET",route="\/v2\/config",status="200"\} 1/);
    expect(text).toMatch(/pmx_queue_jobs\{queue="tx-build",state="waiting"\} \d+/);
    expect(text).toMatch(/process_cpu_seconds_total/);
  });
});
