/**
 * Who is calling an admin path (`/admin…`, `/v2/admin/…`), and may they: one hook for every
 * console page, admin route and the job dashboard.
 *
 * - Callers: `Authorization: Bearer <admin token>` (the operator `admin`), `Bearer <name>:<secret>`,
 *   Basic with the same name and secret (or any user and the admin token), or the console's
 *   session cookie (sessions.service.ts).
 * - Roles: each admin route declares the least role it needs in `config.role`; GET routes need
 *   `viewer`; an undeclared write needs `admin` (test/api/operator-roles.test.ts fails on any).
 *   The job dashboard's writes need `operator`. Not logged in: 401, or the login page for a browser.
 * - CSRF: a request carried by the session cookie that changes anything must also carry the
 *   session's CSRF token (the `_csrf` form field every console form gets, or `x-csrf-token`); the
 *   job dashboard's own calls (`/admin/queues/api/…`) instead must come from this origin.
 * - Pages: a console page gets the CSRF token in each of its post forms, the operator's name and
 *   role with a logout button, and loses the controls its operator's role may not use.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { OperatorDirectory, OperatorRole } from '../../services/operators/operators.service.js';
import { roleAllows } from '../../services/operators/operators.service.js';
import type { SessionStore } from '../../services/operators/sessions.service.js';
import type { LoginThrottle } from '../../services/operators/login-throttle.js';
import { errorEnvelope } from '../envelopes.js';
import { familyOf, routerPath } from '../families.js';
import { constantTimeEqual, cookieOf, SESSION_COOKIE } from './admin-auth.js';
import { decorateConsolePage } from '../pages/console-decoration.js';
import type { OnRequestPart, OnSendPart, PreHandlerPart } from '../hook-pairs.js';

export interface OperatorAccess {
  directory: OperatorDirectory;
  sessions: SessionStore;
  throttle: LoginThrottle;
}

export interface Caller {
  name: string;
  role: OperatorRole;
  via: 'bearer' | 'basic' | 'session';
  csrf?: string;
}

/** An admin route as registered, with the role it declared (test/api/operator-roles.test.ts walks them all). */
export interface AdminRoute {
  method: string;
  url: string;
  declared?: OperatorRole;
}

declare module 'fastify' {
  interface FastifyInstance {
    adminRoutes: AdminRoute[];
  }
  interface FastifyRequest {
    operator?: Caller | null;
  }
  interface FastifyContextConfig {
    /** The least operator role an admin route needs (GET routes: viewer by default). */
    role?: OperatorRole;
  }
}

const OPEN = new Set(['/admin/login', '/admin/logout']);
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isAdminPath(path: string): boolean {
  return path === '/admin' || path.startsWith('/admin/') || path.startsWith('/v2/admin/');
}

const STATIC_SEGMENT = /^[^:*(]*$/;

/**
 * Whether a route pattern can match an admin path (and so serve a request the onRequest check
 * identified an operator on): a pattern whose first segment, or second after `v2`, is static and
 * another word cannot, as the router matches segments literally.
 */
export function mayServeAdminPath(pattern: string): boolean {
  const [first, second] = pattern.split('/').slice(1);
  if (first === undefined || !STATIC_SEGMENT.test(first)) return true;
  if (first === 'admin') return true;
  if (first !== 'v2') return false;
  return second === undefined ? false : !STATIC_SEGMENT.test(second) || second === 'admin';
}

/** The role a request needs: the route's declaration; reads `viewer`; the dashboard's writes `operator`; else `admin`. */
export function neededRole(request: FastifyRequest, path: string): OperatorRole {
  const declared = request.routeOptions.config?.role;
  if (declared) return declared;
  if (READS.has(request.method)) return 'viewer';
  return path.startsWith('/admin/queues/') ? 'operator' : 'admin';
}

async function callerOf(request: FastifyRequest, access: OperatorAccess): Promise<Caller | null> {
  const authorization = request.headers.authorization ?? '';
  if (authorization.startsWith('Bearer ')) return credentials(access, authorization.slice(7).trim(), 'bearer');
  if (authorization.startsWith('Basic ')) {
    const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const [user, secret] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
    if (access.directory.isAdminToken(secret)) return { name: 'admin', role: 'admin', via: 'basic' };
    const operator = colon > 0 ? await access.directory.authenticate(user, secret) : undefined;
    return operator ? { ...operator, via: 'basic' } : null;
  }
  const id = cookieOf(request, SESSION_COOKIE);
  const session = id ? await access.sessions.resolve(id) : undefined;
  return session ? { name: session.name, role: session.role, via: 'session', csrf: session.csrf } : null;
}

async function credentials(access: OperatorAccess, value: string, via: 'bearer'): Promise<Caller | null> {
  if (access.directory.isAdminToken(value)) return { name: 'admin', role: 'admin', via };
  const colon = value.indexOf(':');
  if (colon <= 0) return null;
  const operator = await access.directory.authenticate(value.slice(0, colon), value.slice(colon + 1));
  return operator ? { ...operator, via } : null;
}

function refuse(request: FastifyRequest, reply: FastifyReply, status: 401 | 403, code: string, message: string) {
  const wantsHtml = READS.has(request.method) && (request.headers.accept ?? '').includes('text/html');
  if (status === 401 && wantsHtml) return reply.redirect(`/admin/login?next=${encodeURIComponent(request.url)}`, 302);
  if (status === 401) void reply.header('www-authenticate', 'Bearer realm="pmx-admin"');
  return reply.status(status).send(errorEnvelope(familyOf(request.url), { code, message }));
}

/** A `%` before the query: the path holds an escape the router will decode. */
function hasEscapedPath(url: string): boolean {
  const escape = url.indexOf('%');
  if (escape === -1) return false;
  const query = url.indexOf('?');
  return query === -1 || escape < query;
}

/** Same origin: the browser's Origin (or Referer) names this host. */
function sameOrigin(request: FastifyRequest): boolean {
  const source = request.headers.origin ?? request.headers.referer;
  if (typeof source !== 'string') return false;
  try {
    return new URL(source).host === new URL(`${request.protocol}://${request.host}`).host; // both without a default port
  } catch {
    return false;
  }
}

function csrfOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-csrf-token'];
  if (typeof header === 'string') return header;
  const body = request.body as Record<string, unknown> | undefined;
  return typeof body?._csrf === 'string' ? body._csrf : undefined;
}

/**
 * Hands back the admin paths' onRequest check (who the caller is, what role it has), the CSRF
 * check and the console pages' decoration for buildApp to run as parts of its single global
 * onRequest, preHandler and onSend hooks (hook-pairs.ts); adds the admin routes' own lock.
 */
export function registerOperatorAuth(
  app: FastifyInstance,
  access: OperatorAccess,
): { onRequest: OnRequestPart; preHandler: PreHandlerPart; onSend: OnSendPart } {
  const routes: AdminRoute[] = [];
  app.decorate('adminRoutes', routes);
  const admit = async (request: FastifyRequest, reply: FastifyReply, path: string) => {
    request.operator = await callerOf(request, access);
    if (OPEN.has(path)) return; // logout: anyone may, but a session's logout still needs its CSRF token (below)
    if (!request.operator)
      return refuse(
        request,
        reply,
        401,
        'UNAUTHORIZED',
        'Operator credentials required: log in, or send Authorization: Bearer <name>:<secret>',
      );
    const needed = neededRole(request, path);
    if (!roleAllows(request.operator.role, needed))
      return refuse(
        request,
        reply,
        403,
        'FORBIDDEN',
        `This needs the ${needed} role; ${request.operator.name} is ${request.operator.role}`,
      );
  };
  const admitUnchecked =
    (pattern: string): onRequestHookHandler =>
    (request, reply, done) => {
      if (request.operator !== undefined) return done();
      admit(request, reply, pattern).then(() => done(), done);
    };
  app.addHook('onRoute', (route) => {
    if (!isAdminPath(route.url) || route.url === '/admin/login' || route.url.startsWith('/admin/assets/')) return;
    // A second lock for any path the router matches to an admin route that the hook below did not
    // read as one (it decodes escapes as the router does): the route checks its caller itself when
    // request.operator is still undefined, by its own pattern.
    const existing = route.onRequest;
    route.onRequest = [...(Array.isArray(existing) ? existing : existing ? [existing] : []), admitUnchecked(route.url)];
    if (OPEN.has(route.url)) return;
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, declared: route.config?.role });
  });
  // Every request passes these hooks: synchronous for all but admin paths, so no promise per request.
  // buildApp runs the onRequest part as its single global onRequest hook (with the upgrade check).
  const onRequest: OnRequestPart = (request, reply, done) => {
    // Most requests are not admin paths: told from the URL's start, before splitting off the query.
    // A percent-encoded path (`/%61dmin/…`) is read as the router will match it.
    const url = request.url;
    if (!url.startsWith('/admin') && !url.startsWith('/v2/admin/') && !hasEscapedPath(url)) return done();
    const path = routerPath(url);
    if (!isAdminPath(path) || path === '/admin/login' || path.startsWith('/admin/assets/')) return done();
    admit(request, reply, path).then(() => done(), done);
  };
  const preHandler: PreHandlerPart = (request, reply, done) => {
    const caller = request.operator;
    if (!caller || caller.via !== 'session' || READS.has(request.method)) return done();
    const path = routerPath(request.url);
    const ok = path.startsWith('/admin/queues/api/') ? sameOrigin(request) : constantTimeEqual(csrfOf(request) ?? '', caller.csrf ?? '');
    if (ok) return done();
    // The refusal is the answer: like an async hook that sent one, the chain stops here.
    void refuse(request, reply, 403, 'CSRF_REFUSED', 'This form is not from this console session (missing or wrong CSRF token)');
  };
  const onSend: OnSendPart = (request, reply, payload, done) => {
    const caller = request.operator;
    if (!caller || typeof payload !== 'string' || !String(reply.getHeader('content-type') ?? '').startsWith('text/html'))
      return done(null, payload);
    done(null, decorateConsolePage(payload, caller));
  };
  return { onRequest, preHandler, onSend };
}
