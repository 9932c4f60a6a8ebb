/**
 * The per-request rate-limit hook, synchronous while the store answers from local tokens: the
 * store calls back at once, and so does the hook, so a request within its budget allocates no
 * promise here (the async hook of @fastify/rate-limit 11 it replaces awaited three or four times
 * per request). What it answers is what that plugin answered with our settings:
 * - within the limit: `x-ratelimit-limit`, `x-ratelimit-remaining` and `x-ratelimit-reset` (seconds);
 * - past it: the same three (remaining 0) and `retry-after`, then the 429 refusal;
 * - the store failing (Redis away): served, with the full budget as remaining (skipOnError);
 * - once per request: a request the not-found handler takes after a route is counted once.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { DomainError } from '../../domain/errors.js';
import type { BatchedRedisStore, Lane } from './rate-limit.store.js';

export const WINDOW_MS = 60_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once the limit has counted this request. */
    rateCounted: boolean;
  }
}

export interface LimitSettings {
  store: BatchedRedisStore;
  max(request: FastifyRequest): number;
  /**
   * The counter's key up to its client (`READ:/health:ip:`): the request's method class, route
   * (its URL pattern, `*` for none) and kind of client. A function of the method, route and kind
   * alone, so each route's hook finds its lanes once per method.
   */
  laneKey(request: FastifyRequest, route: string, byApiKey: boolean): string;
  /** The API key the request counts under (Family A with a valid key), or undefined: its address. */
  apiKeyOf(request: FastifyRequest): string | undefined;
  refusal(limit: number, after: string): DomainError;
}

interface Lanes {
  ip: Lane;
  key: Lane;
}

export type LimitHook = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

/**
 * The wait as @fastify/rate-limit worded it (@lukeed/ms `format(ms, true)`), for waits under an
 * hour: "0 ms", "1 second", "42 seconds", "1 minute".
 */
export function waitText(seconds: number): string {
  const abs = Math.abs(seconds);
  if (abs < 1) return `${seconds * 1000} ms`;
  const [count, unit] = abs < 60 ? [Math.round(abs), 'second'] : [Math.round(abs / 60), 'minute'];
  return `${seconds < 0 ? '-' : ''}${count} ${unit}${count === 1 ? '' : 's'}`;
}

/**
 * The hook for one route (`route`: its URL pattern, known when it is registered, so no request
 * builds Fastify's `routeOptions` object to learn it), or for whatever route a request matched
 * (none: the not-found handler's).
 */
export function limitHook(settings: LimitSettings, route?: string): LimitHook {
  const { store, max, laneKey, apiKeyOf, refusal } = settings;
  const lanesOf = (request: FastifyRequest, url: string): Lanes => ({
    ip: store.lane(laneKey(request, url, false)),
    key: store.lane(laneKey(request, url, true)),
  });
  // A route's hook keeps its lanes by method (one or two: GET and HEAD share a budget and a lane).
  const byMethod = new Map<string, Lanes>();
  const lanesFor = (request: FastifyRequest): Lanes => {
    if (route === undefined) return lanesOf(request, request.routeOptions.url ?? '*');
    let lanes = byMethod.get(request.method);
    if (!lanes) byMethod.set(request.method, (lanes = lanesOf(request, route)));
    return lanes;
  };
  return function rateLimit(request, reply, done) {
    if (request.rateCounted) return done();
    request.rateCounted = true;
    const limit = max(request);
    const apiKey = apiKeyOf(request);
    const lanes = lanesFor(request);
    store.incrIn(
      apiKey ? lanes.key : lanes.ip,
      apiKey || `${request.ip}`,
      (err, counted) => {
        // skipOnError: a store error counts as nothing spent, nothing waited.
        const current = err || !counted ? 0 : counted.current;
        const seconds = err || !counted ? 0 : Math.ceil(counted.ttl / 1000);
        reply.header('x-ratelimit-limit', limit);
        if (current <= limit) {
          reply.header('x-ratelimit-remaining', limit - current);
          reply.header('x-ratelimit-reset', seconds);
          done();
          return;
        }
        reply.header('x-ratelimit-remaining', 0);
        reply.header('x-ratelimit-reset', seconds);
        reply.header('retry-after', seconds);
        done(refusal(limit, waitText(seconds)));
      },
      WINDOW_MS,
      limit,
    );
  };
}
