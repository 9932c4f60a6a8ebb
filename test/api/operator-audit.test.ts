// The operators' audit log: every state-changing admin request (API, console form, job dashboard)
// is recorded with its action, target, parameters, result and caller; reads and refused requests
// are not; GET /v2/admin/audit filters and pages; /admin/audit shows it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { admin, createHarness, type Harness } from '../family-a/family-a.harness.js';
import { DIALECTS } from '../helpers/databases.js';

let h: Harness;

const audit = async (query = '') => {
  const res = await h.t.app.inject({ method: 'GET', url: `/v2/admin/audit${query}`, headers: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { items: Array<Record<string, unknown>>; nextCursor: string | null };
};

for (const { name, available, open } of DIALECTS)
  describe.skipIf(!available)(`operator audit log on ${name}`, () => {
    let db: DatabaseHandle;
    beforeAll(async () => {
      db = await open();
      h = await createHarness({ workers: false, db });
    });
    afterAll(async () => {
      await h?.close();
      await db?.close();
    });

    it('records admin writes with their result and caller, not reads nor refused requests', async () => {
      const created = await h.t.app.inject({ method: 'POST', url: '/v2/admin/api-keys', headers: admin, payload: { name: 'bot one' } });
      expect(created.statusCode).toBe(200);
      const keyId = created.json().data.id as string;
      await h.t.app.inject({ method: 'DELETE', url: `/v2/admin/api-keys/${keyId}`, headers: admin });
      const missing = await h.t.app.inject({
        method: 'POST',
        url: '/v2/admin/markets/no-such-market/resolve',
        headers: admin,
        payload: { outcome: 'YES' },
      });
      expect(missing.statusCode).toBeGreaterThanOrEqual(400);
      await h.t.app.inject({ method: 'POST', url: '/v2/admin/api-keys', payload: { name: 'no token' } }); // 401: nobody's action
      await h.t.app.inject({ method: 'GET', url: '/v2/admin/api-keys', headers: admin }); // a read
      const queue = [...h.t.queues.queues.keys()][0]!;
      const paused = await h.t.app.inject({
        method: 'PUT',
        url: `/admin/queues/api/queues/${encodeURIComponent(queue)}/pause`,
        headers: admin,
      });
      expect(paused.statusCode).toBeLessThan(400);

      const { items } = await audit();
      expect(items.map((i) => i.action)).toEqual([
        'PUT /admin/queues/api/queues/:queueName/pause',
        'POST /v2/admin/markets/:slug/resolve',
        'DELETE /v2/admin/api-keys/:id',
        'POST /v2/admin/api-keys',
      ]);
      const [pause, resolve, revoke, create] = items;
      expect(create).toMatchObject({ target: '', params: '{"name":"bot one"}', result: 'ok', status: 200, address: '127.0.0.1' });
      expect(create!.caller).toBe('operator:admin (admin) via bearer');
      expect(revoke).toMatchObject({ target: `id=${keyId}`, result: 'ok' });
      expect(resolve).toMatchObject({
        target: 'slug=no-such-market',
        result: `error ${missing.statusCode} ${missing.json().error.code}`,
        status: missing.statusCode,
      });
      expect(pause).toMatchObject({ target: `queueName=${queue}`, result: 'ok' });
      expect(JSON.stringify(items)).not.toContain('test-admin-token'); // the token itself is never stored
    });

    it('filters by action and target, and pages with a cursor', async () => {
      for (const name of ['a', 'b', 'c'])
        await h.t.app.inject({ method: 'POST', url: '/v2/admin/api-keys', headers: admin, payload: { name } });
      const creates = await audit(`?action=${encodeURIComponent('POST /v2/admin/api-keys')}&limit=2`);
      expect(creates.items.map((i) => i.params)).toEqual(['{"name":"c"}', '{"name":"b"}']);
      const next = await audit(`?action=${encodeURIComponent('POST /v2/admin/api-keys')}&limit=2&cursor=${creates.nextCursor}`);
      expect(next.items.map((i) => i.params)).toEqual(['{"name":"a"}', '{"name":"bot one"}']);
      expect(next.nextCursor).toBeNull();
      expect((await audit('?target=no-such')).items).toHaveLength(1);
      const bad = await h.t.app.inject({ method: 'GET', url: '/v2/admin/audit?cursor=nonsense', headers: admin });
      expect(bad.statusCode).toBe(400);
      expect((await h.t.app.inject({ method: 'GET', url: '/v2/admin/audit' })).statusCode).toBe(401);
    });

    it('shows on the console page', async () => {
      const res = await h.t.app.inject({ method: 'GET', url: '/admin/audit?action=POST%20%2Fv2%2Fadmin%2Fapi-keys', headers: admin });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<h1>Audit log</h1>');
      expect(res.body).toContain('{&#34;name&#34;:&#34;bot one&#34;}');
      expect((await h.t.app.inject({ method: 'GET', url: '/admin/audit', headers: { accept: 'text/html' } })).statusCode).toBe(302);
    });

    it('records a write sent to a percent-encoded admin path under its route', async () => {
      // The router serves /v2/%61dmin/api-keys/:id as /v2/admin/api-keys/:id: the action is the route's.
      const created = await h.t.app.inject({ method: 'POST', url: '/v2/admin/api-keys', headers: admin, payload: { name: 'encoded' } });
      const keyId = created.json().data.id as string;
      const revoked = await h.t.app.inject({ method: 'DELETE', url: `/v2/%61dmin/api-keys/${keyId}`, headers: admin });
      expect(revoked.statusCode, revoked.body).toBe(200);
      const { items } = await audit(`?target=${keyId}`);
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({ action: 'DELETE /v2/admin/api-keys/:id', target: `id=${keyId}`, result: 'ok' });
    });
  });
