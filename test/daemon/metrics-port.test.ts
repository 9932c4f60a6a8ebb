/**
 * METRICS_PORT: a process without the api role (here worker, indexer, matcher and ledger) has no
 * HTTP facade, yet Prometheus must scrape its matcher, keeper and job metrics: it serves /metrics
 * alone on HOST:METRICS_PORT, behind METRICS_TOKEN like the facade's, and nothing else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHarness, waitFor, type BHarness } from '../family-b/family-b.harness.js';
import { sample } from '../helpers/metrics-text.js';

const TOKEN = 'metrics-port-token-0123456789';
let h: BHarness;
beforeAll(async () => {
  h = await openHarness({ ROLES: 'worker,indexer,matcher,ledger', METRICS_PORT: '0', METRICS_TOKEN: TOKEN, HEARTBEAT_INTERVAL_MS: '1000' });
});
afterAll(async () => h?.close());

const scrape = (path = '/metrics', token?: string) =>
  fetch(`${h.daemon.metricsUrl}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('METRICS_PORT on a process without the api role', () => {
  it('serves /metrics with the token: its workers, matcher and readiness', async () => {
    expect(h.daemon.url).toBeUndefined();
    expect(h.daemon.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const body = await waitFor(
      'a heartbeat job counted',
      async () => {
        const text = await (await scrape('/metrics', TOKEN)).text();
        return (sample(text, 'pmx_jobs_total', { queue: 'system', job: 'system.heartbeat', outcome: 'completed' }) ?? 0) > 0
          ? text
          : undefined;
      },
      10_000,
    );
    expect(sample(body, 'pmx_clob_markets_owned')).toBe(0); // a matcher runs here, owning no market yet
    expect(sample(body, 'pmx_ready_check', { check: 'redis' })).toBe(1);
    expect(sample(body, 'pmx_ready_check', { check: 'database' })).toBe(1);
  });

  it('refuses a scrape without the token and serves nothing else', async () => {
    const refused = await scrape();
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
    const other = await scrape('/v2/config', TOKEN);
    expect(other.status).toBe(404);
  });
});
