import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE as ADMIN_COOKIE } from '../../src/api/plugins/admin-auth.js';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/app.js';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('admin authentication of the job dashboard', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (headers: Record<string, string> = {}, url = '/admin/queues') => t.app.inject({ method: 'GET', url, headers });

  it('refuses a request without credentials: 401 JSON for tools, a redirect to the login form for browsers', async () => {
    const tool = await get();
    expect(tool.statusCode).toBe(401);
    expect(tool.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(tool.json()).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: expect.any(String) } });

    const browser = await get({ accept: 'text/html,application/xhtml+xml' });
    expect(browser.statusCode).toBe(302);
    expect(browser.headers.location).toBe(`/admin/login?next=${encodeURIComponent('/admin/queues')}`);

    const api = await get({}, '/admin/queues/api/queues');
    expect(api.statusCode).toBe(401);
  });

  it('refuses wrong tokens', async () => {
    expect((await get({ authorization: 'Bearer not-the-token-at-all' })).statusCode).toBe(401);
    expect((await get({ authorization: `Bearer ${TEST_ADMIN_TOKEN}x` })).statusCode).toBe(401);
    expect((await get({ authorization: basic('admin', 'wrong') })).statusCode).toBe(401);
    expect((await get({ cookie: `${ADMIN_COOKIE}=${TEST_ADMIN_TOKEN}` })).statusCode).toBe(401);
  });

  it('accepts the token as Bearer or as the Basic password', async () => {
    const bearer = await get({ authorization: `Bearer ${TEST_ADMIN_TOKEN}` });
    expect(bearer.statusCode).toBe(200);
    expect(bearer.headers['content-type']).toMatch(/text\/html/);
    expect((await get({ authorization: basic('anyone', TEST_ADMIN_TOKEN) })).statusCode).toBe(200);

    const api = await get({ authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, '/admin/queues/api/queues');
    expect(api.statusCode).toBe(200);
    const names = (api.json() as { queues: Array<{ name: string }> }).queues.map((q) => q.name);
    expect(names).toEqual(expect.arrayContaining(['system', 'tx-build']));
  });

  it('serves the login form, refuses a wrong token with a 401 page, and sets a session cookie that is not the token', async () => {
    const form = await t.app.inject({ method: 'GET', url: '/admin/login?next=/admin/queues' });
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('<form method="post" action="/admin/login">');

    const wrong = await t.app.inject({
      method: 'POST',
      url: '/admin/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ name: 'admin', secret: 'wrong-token-wrong-token', next: '/admin/queues' }).toString(),
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['content-type']).toMatch(/text\/html/);
    expect(wrong.body).toContain('not valid');
    expect(wrong.headers['set-cookie']).toBeUndefined();

    const right = await t.app.inject({
      method: 'POST',
      url: '/admin/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ name: 'admin', secret: TEST_ADMIN_TOKEN, next: '/admin/queues' }).toString(),
    });
    expect(right.statusCode).toBe(303);
    expect(right.headers.location).toBe('/admin/queues');
    const setCookie = String(right.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).not.toContain(TEST_ADMIN_TOKEN);
    const pair = setCookie.split(';', 1)[0]!;
    expect(pair.startsWith(`${ADMIN_COOKIE}=`)).toBe(true);
    expect(pair.length).toBeGreaterThan(ADMIN_COOKIE.length + 20);

    const withCookie = await get({ cookie: pair, accept: 'text/html' });
    expect(withCookie.statusCode).toBe(200);
    expect(withCookie.body).toContain('PMX jobs');
  });

  it('never redirects a login to a place outside /admin', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/admin/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ name: 'admin', secret: TEST_ADMIN_TOKEN, next: 'https://evil.example/admin/' }).toString(),
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/admin');
  });
});
