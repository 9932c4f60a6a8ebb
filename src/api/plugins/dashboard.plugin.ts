/**
 * The operator job dashboard (bull-board) at /admin/queues, and the console's login (a name and a
 * secret, or `admin` and the admin token) and logout at /admin/login, /admin/logout.
 */
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { cookieOf, isAdminRequest, SESSION_COOKIE } from './admin-auth.js';
import type { OperatorAccess } from './operator-auth.js';
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

/** Where a login goes next: a console path (never another origin); the overview by default. */
function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/admin(\/[\w\-/?=&.%]*)?$/.test(next) ? next : '/admin';
}

export async function registerDashboard(app: FastifyInstance, queues: Queue[] | DashboardQueues, access: OperatorAccess): Promise<void> {
  const source: DashboardQueues = Array.isArray(queues) ? { list: async () => queues } : queues;
  await app.register(async (scope) => {
    addFormBodyParser(scope);
    const hide = { hide: true };
    scope.get('/admin/login', { schema: hide }, async (request, reply) => {
      return reply.type('text/html').send(loginPage(safeNext(field(request.query, 'next')), false));
    });
    scope.post('/admin/login', { schema: hide }, async (request, reply) => {
      const next = safeNext(field(request.body, 'next'));
      const name = (field(request.body, 'name') ?? '').trim().slice(0, 64);
      const secret = (field(request.body, 'secret') ?? '').trim();
      // Slowed, never locked out (login-throttle.ts): the wait grows with this name's and this address's failures.
      const wait = access.throttle.delayMs(name, request.ip);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const operator = name && secret ? await access.directory.authenticate(name, secret) : undefined;
      if (!operator) {
        access.throttle.failed(name, request.ip);
        return reply.status(401).type('text/html').send(loginPage(next, true));
      }
      access.throttle.succeeded(name);
      const session = await access.sessions.create(operator);
      const secure = request.protocol === 'https' ? '; Secure' : '';
      reply.header('set-cookie', `${SESSION_COOKIE}=${session.id}; HttpOnly; SameSite=Strict; Path=/admin${secure}`);
      return reply.redirect(next, 303);
    });
    scope.post('/admin/logout', { schema: hide }, async (request, reply) => {
      const id = cookieOf(request, SESSION_COOKIE);
      if (id) await access.sessions.end(id);
      reply.header('set-cookie', `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/admin; Max-Age=0`);
      return reply.redirect('/admin/login', 303);
    });
  });

  await app.register(async (scope) => {
    // Who may see and act is decided by operator-auth.ts before these routes run; this is a second lock.
    scope.addHook('onRequest', async (request, reply) => {
      if (!isAdminRequest(request))
        return reply.status(401).send({ success: false, error: { code: 'UNAUTHORIZED', message: 'Operator credentials required' } });
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
