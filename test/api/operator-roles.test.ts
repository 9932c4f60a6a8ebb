// Every admin route of the whole daemon, walked with every role: a role below the route's answers
// 403, one at or above it gets past the role check (whatever the route then says of the made-up
// parameters). A write route that declares no role fails here, so a new one cannot slip in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOperator, roleAllows, ROLES, type OperatorRole } from '../../src/services/operators/operators.service.js';
import { openClobHarness, type CHarness } from '../family-c/family-c.harness.js';

let h: CHarness;
const secrets = new Map<OperatorRole, string>();
beforeAll(async () => {
  h = await openClobHarness();
  for (const role of ROLES) secrets.set(role, (await addOperator(h.daemon.db.db, `matrix-${role}`, role)).secret);
});
afterAll(async () => h?.close());

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The role the route needs: declared, or by the rules (reads: viewer; the job dashboard's writes: operator). */
function expected(method: string, url: string, declared?: OperatorRole): OperatorRole {
  if (declared) return declared;
  if (READS.has(method)) return 'viewer';
  return url.startsWith('/admin/queues/') ? 'operator' : 'admin';
}
const fill = (url: string) => url.replace(/:[A-Za-z]+/g, 'no-such-thing').replace(/\*$/, 'x.js');

describe('admin routes by role', () => {
  it('declares a role on every admin write route (the job dashboard by its path rule)', () => {
    const undeclared = h.app.adminRoutes.filter((r) => !READS.has(r.method) && !r.declared && !r.url.startsWith('/admin/queues/'));
    expect(undeclared).toEqual([]);
    expect(h.app.adminRoutes.length).toBeGreaterThan(30);
  });

  it('answers 403 below the route’s role and lets the role and those above it through', async () => {
    const seen: string[] = [];
    for (const route of h.app.adminRoutes) {
      if (route.method === 'HEAD' || route.method === 'OPTIONS') continue;
      const needs = expected(route.method, route.url, route.declared);
      for (const role of ROLES) {
        const res = await h.app.inject({
          method: route.method as 'GET',
          url: fill(route.url),
          headers: { authorization: `Bearer matrix-${role}:${secrets.get(role)}`, 'content-type': 'application/json' },
          ...(READS.has(route.method) ? {} : { payload: '{}' }),
        });
        const label = `${route.method} ${route.url} as ${role} (needs ${needs})`;
        if (roleAllows(role, needs)) expect([401, 403], `${label}: ${res.body}`).not.toContain(res.statusCode);
        else expect(res.statusCode, label).toBe(403);
        seen.push(label);
      }
    }
    expect(seen.length).toBeGreaterThan(90);
  }, 120_000);

  it('refuses everyone without credentials, and a revoked or wrong secret', async () => {
    for (const route of h.app.adminRoutes.filter((r) => r.method === 'GET').slice(0, 10)) {
      expect((await h.app.inject({ method: 'GET', url: fill(route.url) })).statusCode, route.url).toBe(401);
    }
    const wrong = await h.app.inject({ method: 'GET', url: '/v2/admin/audit', headers: { authorization: 'Bearer matrix-admin:not-it' } });
    expect(wrong.statusCode).toBe(401);
  });

  it('checks the caller of a percent-encoded admin path, which the router decodes to the same route', async () => {
    // `/%61dmin/…` does not start with /admin, yet the router serves /admin/… for it.
    const encoded = (url: string) => url.replace(/\/admin/, '/%61dmin');
    const writes = h.app.adminRoutes.filter((r) => !READS.has(r.method));
    for (const route of h.app.adminRoutes.filter((r) => r.method === 'GET')) {
      const res = await h.app.inject({ method: 'GET', url: encoded(fill(route.url)) });
      expect(res.statusCode, `GET ${encoded(fill(route.url))}`).toBe(401);
    }
    for (const route of writes) {
      const url = encoded(fill(route.url));
      const res = await h.app.inject({
        method: route.method as 'POST',
        url,
        headers: { authorization: `Bearer matrix-viewer:${secrets.get('viewer')}`, 'content-type': 'application/json' },
        payload: '{}',
      });
      expect(res.statusCode, `${route.method} ${url} as viewer`).toBe(403);
    }
    expect(writes.length).toBeGreaterThan(10);
  }, 120_000);
});
