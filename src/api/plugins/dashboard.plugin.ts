/**
 * The operator job dashboard (bull-board) at /admin/queues, behind the admin token, with a small
 * login form at /admin/login for browsers.
 */
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { ADMIN_COOKIE, isAdminRequest, safeEqual, sessionValue } from './admin-auth.js';
import { addFormBodyParser } from './form-body.js';
import { loginPage } from './login-page.js';

const BASE = '/admin/queues';

/** Queues that change while the daemon runs (a matcher process's queue comes and goes with it): read again on each dashboard request. */
export interface DashboardQueues {
  list(): Promise<Queue[]>;
}

/**
 * A field of the login form's body or query as a string, or undefined: these routes take whatever a
 * browser (or anyone) posts and answer with the form again, so there is no schema to 400 on.
 */
function field(source: unknown, key: string): string | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const value: unknown = Reflect.get(source, key);
  return typeof value === 'string' ? value : undefined;
}

function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/admin\/[\w\-/?=&.%]*$/.test(next) ? next : BASE;
}

export async function registerDashboard(app: FastifyInstance, queues: Queue[] | DashboardQueues, token: string): Promise<void> {
  const source: DashboardQueues = Array.isArray(queues) ? { list: async () => queues } : queues;
  await app.register(async (scope) => {
    addFormBodyParser(scope);
    const hide = { hide: true };
    scope.get('/admin/login', { schema: hide }, async (request, reply) => {
      return reply.type('text/html').send(loginPage(safeNext(field(request.query, 'next')), false));
    });
    scope.post('/admin/login', { schema: hide }, async (request, reply) => {
      const next = safeNext(field(request.body, 'next'));
      if (!safeEqual((field(request.body, 'token') ?? '').trim(), token)) {
        return reply.status(401).type('text/html').send(loginPage(next, true));
      }
      const secure = request.protocol === 'https' ? '; Secure' : '';
      reply.header('set-cookie', `${ADMIN_COOKIE}=${sessionValue(token)}; HttpOnly; SameSite=Strict; Path=/admin${secure}`);
      return reply.redirect(next, 303);
    });
    scope.post('/admin/logout', { schema: hide }, async (_request, reply) => {
      reply.header('set-cookie', `${ADMIN_COOKIE}=; HttpOnly; SameSite=Strict; Path=/admin; Max-Age=0`);
      return reply.redirect('/admin/login', 303);
    });
  });

  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      if (isAdminRequest(request, token)) return;
      const wantsHtml = (request.headers.accept ?? '').includes('text/html');
      if (wantsHtml) return reply.redirect(`/admin/login?next=${encodeURIComponent(request.url)}`, 302);
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="pmx-admin"')
        .send({ success: false, error: { code: 'UNAUTHORIZED', message: 'Admin token required' } });
    });
    const serverAdapter = new FastifyAdapter();
    serverAdapter.setBasePath(BASE);
    let shown = await source.list();
    const board = createBullBoard({
      queues: shown.map((q) => new BullMQAdapter(q)),
      serverAdapter,
      options: {
        uiConfig: {
          boardTitle: 'PMX jobs',
          miscLinks: [
            { text: 'Platform money', url: '/admin/money' },
            { text: 'Orderbook', url: '/admin/orderbook' },
            { text: 'Nodes', url: '/admin/nodes' },
          ],
        },
      },
    });
    // After the token check: the board shows the queues as they are now (cheap: the source caches its list).
    scope.addHook('onRequest', async () => {
      const now = await source.list();
      if (now.length === shown.length && now.every((q, i) => q === shown[i])) return;
      shown = now;
      board.replaceQueues(now.map((q) => new BullMQAdapter(q)));
    });
    await scope.register(serverAdapter.registerPlugin(), { prefix: BASE });
  });
}
