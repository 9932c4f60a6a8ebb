/**
 * The operator's CSRF check, page decoration and audit row run as route hooks of every route that
 * can match an admin path, and of the not-found handler, rather than as global hooks (app.ts):
 * a route whose pattern can match an admin path only through a parameter still checks a session's
 * CSRF token, and an operator's write to an unknown admin path is still refused without its token
 * and audited with its 404 when it has one (or a bearer).
 */
import type { FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mayServeAdminPath } from '../../src/api/plugins/operator-auth.js';
import { addOperator } from '../../src/services/operators/operators.service.js';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/app.js';

let t: TestApp;
let handled = 0;
const routes: FastifyPluginAsync = async (app) => {
  app.post('/:section/notes', async () => ({ ok: ++handled }));
};
beforeAll(async () => {
  t = await createTestApp({ routes: [routes] });
});
afterAll(async () => t?.close());

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

async function sessionCookie(name: string): Promise<string> {
  const { secret } = await addOperator(t.db.db, name, 'admin');
  const res = await t.app.inject({
    method: 'POST',
    url: '/admin/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    payload: new URLSearchParams({ name, secret, next: '/admin/audit' }).toString(),
  });
  expect(res.statusCode, res.body).toBe(303);
  return String(res.headers['set-cookie']).split(';', 1)[0]!;
}

describe('the operator stages', () => {
  it('are on every route pattern that can match an admin path', () => {
    for (const pattern of ['/admin', '/admin/queues/*', '/v2/admin/audit', '/:section/notes', '/*', '/v2/:root/x', '/v2/*', '/:a-:b'])
      expect(mayServeAdminPath(pattern), pattern).toBe(true);
    for (const pattern of ['/', '/health', '/v2', '/v2/markets/:id', '/v2/clob/*', '/docs/*', '/administrator', '/v2/admins/x'])
      expect(mayServeAdminPath(pattern), pattern).toBe(false);
  });

  it('check the CSRF token on a route that reaches an admin path through a parameter', async () => {
    const cookie = await sessionCookie('stages-one');
    const post = (headers: Record<string, string>) => t.app.inject({ method: 'POST', url: '/admin/notes', headers, payload: {} });
    expect((await post({ cookie })).statusCode).toBe(403);
    expect(handled).toBe(0);
    expect((await post(admin)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/public/notes', payload: {} })).statusCode).toBe(200);
    expect(handled).toBe(2);
  });

  it('refuse and audit an operator’s write to an unknown admin path', async () => {
    const cookie = await sessionCookie('stages-two');
    const unknown = (headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/v2/admin/no-such-thing', headers, payload: { a: 1 } });
    expect((await unknown({ cookie })).json().error.code).toBe('CSRF_REFUSED');
    expect((await unknown(admin)).statusCode).toBe(404);
    const audit = await t.app.inject({ method: 'GET', url: '/v2/admin/audit', headers: admin });
    const items = audit.json().data.items as Array<Record<string, unknown>>;
    expect(items.filter((i) => String(i.action).includes('/v2/admin/no-such-thing'))).toEqual([
      expect.objectContaining({ status: 404, caller: 'operator:admin (admin) via bearer' }),
    ]);
  });
});
