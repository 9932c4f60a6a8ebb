// The operator console on the whole daemon: the overview and the markets of every family (HTML and
// JSON), an orderbook market's page with its book, trades and settlement, and its controls —
// pause, resume, resolve behind a confirmation, cancel every resting order — each recorded in the
// audit log; the chart library served from the package.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN } from '../helpers/app.js';
import { createClobMarket, depositedTrader, get, place, USDC, waitFor, type CHarness } from '../family-c/family-c.harness.js';
import { openClobHarness } from '../family-c/family-c.harness.js';

let h: CHarness;
const bearer = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const html = { ...bearer, accept: 'text/html' };
beforeAll(async () => {
  h = await openClobHarness();
});
afterAll(async () => h?.close());

const page = (url: string) => h.app.inject({ method: 'GET', url, headers: html });
const form = (url: string, body: Record<string, string> = {}) =>
  h.app.inject({
    method: 'POST',
    url,
    headers: { ...html, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(body).toString(),
  });

describe('operator console', () => {
  it('shows the overview, the markets and an orderbook market with its book, trades and settlement', async () => {
    const m = await createClobMarket(h);
    const maker = await depositedTrader(h, 100n * USDC);
    const taker = await depositedTrader(h, 100n * USDC);
    await place(h, maker, { market: m.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 4000, quantity: 10n * USDC });
    await place(h, maker, { market: m.marketPubkey, side: 'buy', outcome: 'no', priceBps: 3000, quantity: 10n * USDC });
    // A NO bid at 6000 meets the YES bid at 4000: a complementary fill of 4 tokens.
    await place(h, taker, { market: m.marketPubkey, side: 'buy', outcome: 'no', priceBps: 6000, quantity: 4n * USDC });

    const overview = await h.app.inject({ method: 'GET', url: '/v2/admin/console/overview', headers: bearer });
    expect(overview.statusCode).toBe(200);
    expect(overview.json().data.families.C.marketsByStatus.active).toBeGreaterThanOrEqual(1);
    expect(overview.json().data.families.C.fillsByStatus).toBeDefined();
    const home = await page('/admin');
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('<h1>Overview</h1>');
    expect(home.body).toContain('/admin/assets/uplot.js');

    const markets = await h.app.inject({ method: 'GET', url: '/v2/admin/console/markets?family=C', headers: bearer });
    const row = (markets.json().data as Array<Record<string, any>>).find((r) => r.id === m.id)!; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(row.orderbook).toMatchObject({ restingOrders: 2, bestBid: { yes: 4000, no: 3000 }, bestAsk: { yes: null, no: null } });
    expect(row.orderbook.fillsByStatus).toEqual(expect.objectContaining({}));
    expect((await page('/admin/markets?family=C')).body).toContain(`/admin/markets/c/${m.id}`);

    await waitFor(
      'the fill settled',
      async () => ((await get(h, `/v2/clob/markets/${m.id}/trades`)).json().trades[0]?.status === 'settled' ? true : undefined),
      15_000,
    );
    const view = await page(`/admin/markets/c/${m.id}`);
    expect(view.statusCode).toBe(200);
    expect(view.body).toContain('<strong id="market-status">active</strong>');
    expect(view.body).toContain('4000 · 6000000'); // the YES bid left after the 4-token fill
    expect(view.body).toContain('settled: 1');
    expect(view.body).toContain('Nothing stuck.');
  });

  it('pauses, resumes, resolves after a confirmation and cancels every resting order, each in the audit log', async () => {
    const m = await createClobMarket(h);
    const maker = await depositedTrader(h, 100n * USDC);
    const order = await place(h, maker, { market: m.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 4000, quantity: 5n * USDC });

    expect((await form(`/admin/markets/c/${m.id}/pause`)).body).toContain('<strong id="market-status">paused</strong>');
    expect((await form(`/admin/markets/c/${m.id}/resume`)).body).toContain('<strong id="market-status">active</strong>');
    const cancelled = await form(`/admin/markets/c/${m.id}/cancel-all`);
    expect(cancelled.body).toContain('Cancelled 1 resting order(s)');
    const after = (await get(h, `/v2/clob/orders/${order.orderId ?? order.id}`)).json();
    expect(after.order).toMatchObject({ status: 'cancelled', cancelReason: 'operator' });

    const confirm = await page(`/admin/markets/c/${m.id}/resolve?outcome=no`);
    expect(confirm.body).toContain('Confirm resolution');
    expect(confirm.body).toMatch(/Resolve <strong>[a-z0-9-]+<\/strong> \(Will it rain[^)]*\) as <strong>NO<\/strong>/);
    expect((await get(h, `/v2/clob/markets/${m.id}`)).json().market.status).toBe('active'); // nothing happened yet
    expect((await form(`/admin/markets/c/${m.id}/resolve`, { outcome: 'no' })).statusCode).toBe(400); // no confirmation, no change
    const resolved = await form(`/admin/markets/c/${m.id}/resolve`, { outcome: 'no', confirm: 'yes' });
    expect(resolved.body).toContain('Resolved NO');
    expect((await get(h, `/v2/clob/markets/${m.id}`)).json().market).toMatchObject({ status: 'resolved', outcome: 'no' });
    expect((await form(`/admin/markets/c/${m.id}/pause`)).statusCode).toBe(409);

    const audit = await h.app.inject({ method: 'GET', url: `/v2/admin/audit?target=${m.id}`, headers: bearer });
    expect((audit.json().data.items as Array<{ action: string; result: string }>).map((i) => `${i.action} ${i.result}`)).toEqual([
      'POST /admin/markets/c/:id/pause error 409',
      'POST /admin/markets/c/:id/resolve ok',
      'POST /admin/markets/c/:id/resolve error 400',
      'POST /admin/markets/c/:id/cancel-all ok',
      'POST /admin/markets/c/:id/resume ok',
      'POST /admin/markets/c/:id/pause ok',
    ]);
  });

  it('serves uPlot from its package and keeps every page behind the admin token', async () => {
    const js = await h.app.inject({ method: 'GET', url: '/admin/assets/uplot.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toContain('javascript');
    expect(js.body).toContain('uPlot');
    for (const url of ['/admin', '/admin/markets', '/admin/console/samples.json']) {
      const res = await h.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(302);
    }
    expect((await h.app.inject({ method: 'GET', url: '/v2/admin/console/overview' })).statusCode).toBe(401);
  });
});
