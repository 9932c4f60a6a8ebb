/**
 * Small pieces of operator authentication shared by the console and the admin routes. Who the
 * caller is and what they may do is decided once per request by operator-auth.ts (a hook on
 * every admin path); routes and pages read its verdict here.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.js';

/** The console session's cookie: a random id (sessions.service.ts), HttpOnly, SameSite=Strict, Path=/admin. */
export const SESSION_COOKIE = 'pmx_session';

/** Constant time whatever the lengths (both sides hashed first). */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length === 0 || b.length === 0) return false;
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
}

export function cookieOf(request: FastifyRequest, name: string): string | undefined {
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

/** Whether operator-auth.ts recognised the caller (only on admin paths). */
export function isAdminRequest(request: FastifyRequest): boolean {
  return Boolean(request.operator);
}

/** Who acted, for the audit log: `operator:<name> (<role>) via <bearer|basic|session>`. */
export function callerLabel(request: FastifyRequest): string | undefined {
  const c = request.operator;
  return c ? `operator:${c.name} (${c.role}) via ${c.via}` : undefined;
}

/** onRequest hook of JSON admin routes: a second lock behind operator-auth.ts's. */
export function requireAdmin() {
  return async (request: FastifyRequest): Promise<void> => {
    if (!isAdminRequest(request)) {
      throw new DomainError('unauthorized', 'UNAUTHORIZED', 'Operator credentials required: send Authorization: Bearer <name>:<secret>');
    }
  };
}
