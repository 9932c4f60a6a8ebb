/**
 * One guard for every route: text that cannot be stored is refused with 400 before any handler
 * runs. PostgreSQL refuses a NUL byte in `text` (the query failed and the route answered 500) and
 * a lone UTF-16 surrogate has no UTF-8 encoding (drivers replace it with U+FFFD, so what is stored
 * is not what was asked). Every string of the path parameters, the query string and the parsed
 * body, object keys included, is checked here, so no route's schema has to remember it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, preValidationHookHandler } from 'fastify';
import { afterRateLimit, listed } from './hook-pairs.js';
import { DomainError } from '../domain/errors.js';

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why `text` cannot be stored, or undefined when it can. */
export function unstorable(text: string): string | undefined {
  if (text.includes('\u0000')) return 'contains a NUL byte (\\u0000)';
  if (LONE_SURROGATE.test(text)) return 'contains a lone UTF-16 surrogate';
  return undefined;
}

/** Any surrogate at all (paired ones are storable, but rare enough to leave to the full check). */
const SURROGATE = /[\ud800-\udfff]/;

/** Text without a NUL byte or any surrogate is storable, and most text has neither. */
const suspect = (text: string) => text.includes('\u0000') || SURROGATE.test(text);

/**
 * Whether every string in `root` (object keys included) is free of NUL bytes and surrogates: the
 * common case, told without building a path string per value as findUnstorable's walk does (a
 * signed order's body holds ~12 strings, and every request with a body pays this). Iterative,
 * like findUnstorable; anything it cannot clear goes to findUnstorable for the verdict and path.
 */
function plainlyStorable(root: unknown): boolean {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (suspect(value)) return false;
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) pending.push(value[i]);
    } else if (typeof value === 'object' && value !== null) {
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        if (suspect(key)) return false;
        pending.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return true;
}

/**
 * The first unstorable string in `root` with its path (`body.orders.2.marketId`). Iterative, so a
 * deeply nested JSON body (256 KiB of `[`) cannot overflow the stack.
 */
export function findUnstorable(root: unknown, rootPath: string): string | undefined {
  const pending: Array<[unknown, string]> = [[root, rootPath]];
  while (pending.length > 0) {
    const [value, path] = pending.pop()!;
    if (typeof value === 'string') {
      const why = unstorable(value);
      if (why) return `${path} ${why}`;
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => pending.push([item, `${path}.${index}`]));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        const why = unstorable(key);
        if (why) return `${path} has a key that ${why}`;
        pending.push([item, `${path}.${key}`]);
      }
    }
  }
  return undefined;
}

/**
 * Nothing to walk: no value, or an object without own enumerable keys (a route without path
 * parameters, a request without a query string or body: /health). Tells it without allocating,
 * as findUnstorable's walk would not (it runs for every request).
 */
function holdsNoText(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'object') return false;
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

function refuseUnstorable(request: FastifyRequest): void {
  const { params, query, body } = request;
  if (holdsNoText(params) && holdsNoText(query) && holdsNoText(body)) return;
  if (plainlyStorable(params) && plainlyStorable(query) && plainlyStorable(body)) return;
  const problem = findUnstorable(params, 'params') ?? findUnstorable(query, 'querystring') ?? findUnstorable(body, 'body');
  if (problem) throw new DomainError('invalid', 'VALIDATION_ERROR', `${problem}, which cannot be stored`);
}

/** The guard as a hook: synchronous (every request pays it, so no promise), its refusal handed to `done`. */
export function storableTextGuard(request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
  try {
    refuseUnstorable(request);
  } catch (error) {
    return done(error as Error);
  }
  done();
}

/** Methods Fastify reads no body for: their params and query are all there is from onRequest on. */
const BODYLESS = new Set(['GET', 'HEAD']);

/**
 * Installs the guard on every route registered after it (the not-found handler takes it as its
 * own preValidation hook, buildApp). A route with a body to read checks it in its preValidation
 * stage, first of the route's own hooks; a GET or HEAD route has nothing more to read after
 * onRequest, so its guard runs there, behind the rate limit, inside the limit's own hook
 * (rate-limit.plugin.ts): the same order as before, without a preValidation stage per request.
 */
export function installStorableTextGuard(app: FastifyInstance): void {
  const behindLimit = afterRateLimit((request, reply, done) => storableTextGuard(request, reply, done));
  app.addHook('onRoute', (route) => {
    if ([route.method].flat().every((method) => BODYLESS.has(method))) {
      route.onRequest = [...listed(route.onRequest), behindLimit as onRequestHookHandler];
    } else {
      route.preValidation = [storableTextGuard as preValidationHookHandler, ...listed(route.preValidation)];
    }
  });
}
