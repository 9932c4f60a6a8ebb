/**
 * Admin authentication. Tools send `Authorization: Bearer <admin token>`; browsers log in once at
 * /admin/login and carry an HttpOnly cookie holding an HMAC of the token (never the token
 * itself), or use Basic auth with the token as password. Comparisons are constant-time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.js';

export const ADMIN_COOKIE = 'pmx_admin';

export function sessionValue(token: string): string {
  return createHmac('sha256', token).update('pmx-admin-session-v1').digest('base64url');
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function cookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(rest.join('='));
    } catch {
      return undefined; // a malformed cookie is no session (and no 500)
    }
  }
  return undefined;
}

export function isAdminRequest(request: FastifyRequest, token: string): boolean {
  const authorization = request.headers.authorization ?? '';
  if (authorization.startsWith('Bearer ')) return safeEqual(authorization.slice(7).trim(), token);
  if (authorization.startsWith('Basic ')) {
    const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
    return safeEqual(decoded.slice(decoded.indexOf(':') + 1), token);
  }
  const session = cookie(request, ADMIN_COOKIE);
  return session !== undefined && safeEqual(session, sessionValue(token));
}

/** How a request proves the admin token (for the audit log), or undefined when it does not. */
export function adminCredential(request: FastifyRequest, token: string): 'bearer' | 'basic' | 'session' | undefined {
  if (!isAdminRequest(request, token)) return undefined;
  const authorization = request.headers.authorization ?? '';
  if (authorization.startsWith('Bearer ')) return 'bearer';
  return authorization.startsWith('Basic ') ? 'basic' : 'session';
}

/** onRequest hook for JSON admin endpoints. */
export function requireAdmin(token: string) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!isAdminRequest(request, token)) {
      throw new DomainError('unauthorized', 'UNAUTHORIZED', 'Admin token required: send Authorization: Bearer <admin token>');
    }
  };
}
