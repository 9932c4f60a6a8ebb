// Console sessions and logins: a session ends at its idle and absolute deadlines and on logout or
// its operator's revocation, each on the next request; a form post without the session's CSRF
// token (a cross-site form, whose page cannot know it) is refused; failed logins are slowed per
// name, never locked out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperatorAccess } from '../../src/services/operators/operator-access.js';
import { addOperator, revokeOperatorByName } from '../../src/services/operators/operators.service.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sessions: { idleMs: 60_000, maxMs: 120_000 } });
});
afterAll(async () => t?.close());

const formPost = (url: string, body: Record<string, string>, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', ...(cookie ? { cookie } : {}) },
    payload: new URLSearchParams(body).toString(),
  });

async function login(name: string, secret: string) {
  const res = await formPost('/admin/login', { name, secret, next: '/admin/audit' });
  expect(res.statusCode, res.body).toBe(303);
  const setCookie = String(res.headers['set-cookie']);
  expect(setCookie).toMatch(/HttpOnly/);
  expect(setCookie).toMatch(/SameSite=Strict/);
  expect(setCookie).not.toContain(secret);
  return setCookie.split(';', 1)[0]!;
}

const page = (cookie: string, url = '/admin/audit') => t.app.inject({ method: 'GET', url, headers: { cookie, accept: 'text/html' } });
const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1];

describe('operator sessions', () => {
  it('shows who is logged in; logout ends the session on the next request', async () => {
    const { secret } = await addOperator(t.db.db, 'carol', 'operator');
    const cookie = await login('carol', secret);
    const before = await page(cookie);
    expect(before.statusCode).toBe(200);
    expect(before.body).toContain('Logged in as <strong>carol</strong> (operator)');
    const csrf = csrfOf(before.body)!;
    expect(csrf).toBeDefined();
    expect((await formPost('/admin/logout', { _csrf: csrf }, cookie)).statusCode).toBe(303);
    expect((await page(cookie)).statusCode).toBe(302); // back to the login page
  });

  it('revoking the operator ends their sessions on the next request', async () => {
    const { secret } = await addOperator(t.db.db, 'dave', 'viewer');
    const cookie = await login('dave', secret);
    expect((await page(cookie)).statusCode).toBe(200);
    expect(await revokeOperatorByName(t.db.db, 'dave')).toEqual({ sessions: 1 });
    expect((await page(cookie)).statusCode).toBe(302);
    expect((await formPost('/admin/login', { name: 'dave', secret })).statusCode).toBe(401);
  });

  it('ends a session at its idle deadline and at its absolute one', async () => {
    const { secret } = await addOperator(t.db.db, 'erin', 'viewer');
    const access = createOperatorAccess(t.db.db, 'unused-admin-token-0123456789', { idleMs: 1_000, maxMs: 5_000 });
    const operator = (await access.directory.authenticate('erin', secret))!;
    const now = Date.now();
    const idle = await access.sessions.create(operator, now);
    expect(await access.sessions.resolve(idle.id, now + 900)).toMatchObject({ name: 'erin' });
    expect(await access.sessions.resolve(idle.id, now + 2_100)).toBeUndefined(); // 1.2 s without a request
    const busy = await access.sessions.create(operator, now);
    for (let at = now + 900; at < now + 5_000; at += 900) expect(await access.sessions.resolve(busy.id, at)).toBeDefined();
    expect(await access.sessions.resolve(busy.id, now + 5_000)).toBeUndefined(); // used all along, still ends
  });

  it('refuses a state-changing form post without the session’s CSRF token (what a cross-site form sends)', async () => {
    const { secret } = await addOperator(t.db.db, 'frank', 'admin');
    const cookie = await login('frank', secret);
    // The job dashboard's own calls (not forms) must come from this origin.
    const dashboard = (origin?: string) =>
      t.app.inject({ method: 'PUT', url: '/admin/queues/api/queues/system/pause', headers: { cookie, ...(origin ? { origin } : {}) } });
    expect((await dashboard()).statusCode).toBe(403);
    expect((await dashboard('https://evil.example')).statusCode).toBe(403);
    expect((await dashboard('http://localhost:80')).statusCode).toBeLessThan(400);
    const noToken = await formPost('/admin/logout', {}, cookie);
    expect(noToken.statusCode).toBe(403);
    expect(noToken.json().error.code).toBe('CSRF_REFUSED');
    expect((await page(cookie)).statusCode).toBe(200); // and nothing happened: still logged in
  });

  it('slows failed logins of a name more and more, and still lets the right secret in', async () => {
    const { secret } = await addOperator(t.db.db, 'grace', 'viewer');
    const times: number[] = [];
    for (let i = 0; i < 4; i++) {
      const started = Date.now();
      expect((await formPost('/admin/login', { name: 'grace', secret: `wrong-${i}` })).statusCode).toBe(401);
      times.push(Date.now() - started);
    }
    // 0, 250, 500, 1000 ms of waiting before each answer.
    expect(times[3]!).toBeGreaterThanOrEqual(950);
    expect(times[3]!).toBeGreaterThan(times[1]!);
    const started = Date.now();
    await login('grace', secret);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900); // slowed, not locked out
  });
});
