/**
 * The operator job dashboard (bull-board) at /admin/queues, behind the admin token, with a small
 * login form at /admin/login for browsers.
 */
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { ADMIN_COOKIE, isAdminRequest, sessionValue } from './admin-auth.js';
import { loginPage } from './login-page.js';

const BASE = '/admin/queues';

function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/admin\/[\w\-/?=&.%]*$/.test(next) ? next : BASE;
}

export async function registerDashboard(app: FastifyInstance, queues: Queue[], token: string): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    const hide = { hide: true };
    scope.get('/admin/login', { schema: hide }, async (request, reply) => {
      const { next } = request.query as { next?: string };
      return reply.type('text/html').send(loginPage(safeNext(next), false));
    });
    scope.post('/admin/login', { schema: hide }, async (request, reply) => {
      const body = (request.body ?? {}) as { token?: string; next?: string };
      const fakeRequest = { headers: { authorization: `Bearer ${body.token ?? ''}` } } as typeof request;
      if (!isAdminRequest(fakeRequest, token)) {
        return reply.status(401).type('text/html').send(loginPage(safeNext(body.next), true));
      }
      const secure = request.protocol === 'https' ? '; Secure' : '';
      reply.header('set-cookie', `${ADMIN_COOKIE}=${sessionValue(token)}; HttpOnly; SameSite=Strict; Path=/admin${secure}`);
      return reply.redirect(safeNext(body.next), 303);
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
    createBullBoard({ queues: queues.map((q) => new BullMQAdapter(q)), serverAdapter, options: { uiConfig: { boardTitle: 'PMX jobs' } } });
    await scope.register(serverAdapter.registerPlugin(), { prefix: BASE });
  });
}
