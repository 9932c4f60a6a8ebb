/**
 * Rate limits per route and client (spec "Limits"): reads 600/min, writes 300/min by default,
 * counted in Redis so the limits hold across API processes, through a store that reserves
 * tokens in batches and spends them locally (rate-limit.store.ts: no Redis round trip on most
 * requests; all processes together never admit more than the limit). Over the limit: 429 with
 * `Retry-After` (seconds) in the family's envelope. A request that carries `apiKeyId` (Family A
 * with a valid X-API-Key) counts per key instead of per IP. A request that stands for several
 * writes (a batch of N orders) spends the other N − 1 of its route's budget through
 * `spendRateTokens`, once its body is read.
 *
 * The hook is ours, not @fastify/rate-limit's: that plugin's async hook awaited the key, the limit
 * and the store's callback on every request (three or four promises), and every route pays it.
 * This one is synchronous while the store answers from local tokens (nearly every request), and
 * keeps that plugin's behaviour: the same keys, limits, headers, 429 envelope and skipOnError, and
 * the same routes limited (rate-limit.hook.ts).
 */
import type { FastifyInstance, FastifyRequest, onRequestHookHandler, preHandlerHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import { DomainError } from '../../domain/errors.js';
import { limitHook, WINDOW_MS } from './rate-limit.hook.js';
import { BatchedRedisStore } from './rate-limit.store.js';
import { chainPreHandlers, runsAfterRateLimit, type OnRequestPart } from '../hook-pairs.js';

export interface RateLimitOptions {
  redis: Redis;
  readPerMinute: number;
  writePerMinute: number;
  nameSpace: string;
}

const READ_METHODS = new Set(['GET', 'HEAD']);

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts `tokens` more requests of this request's route and client; 429 RATE_LIMITED when they pass the limit. */
    spendRateTokens(request: FastifyRequest, tokens: number): Promise<void>;
    /** The limit as a hook of its own, for the not-found handler (no route's onRequest runs there). */
    rateLimit(): preHandlerHookHandler;
  }
  interface FastifyContextConfig {
    /** `false`: this route is not limited. Absent: the global limit. Per-route limits are not supported. */
    rateLimit?: false;
  }
}

/** The API key id Family A's key lookup set on the request (a valid X-API-Key), if any. */
function apiKeyOf(request: FastifyRequest): string | undefined {
  return (request as FastifyRequest & { apiKeyId?: string }).apiKeyId || undefined;
}

export function registerRateLimit(app: FastifyInstance, options: RateLimitOptions): void {
  const store = BatchedRedisStore.create(options.redis, `${options.nameSpace}:ratelimit:`);
  const max = (request: FastifyRequest) => (READ_METHODS.has(request.method) ? options.readPerMinute : options.writePerMinute);
  // GET and HEAD share one budget (the spec counts reads together): a HEAD is a GET without body.
  // The Redis key is `<lane><client>`: `READ:/health:ip:127.0.0.1`, `POST:/v2/orders:key:<id>`.
  const laneKey = (request: FastifyRequest, route: string, byApiKey: boolean) =>
    `${READ_METHODS.has(request.method) ? 'READ' : request.method}:${route}:${byApiKey ? 'key' : 'ip'}:`;
  const routeOf = (request: FastifyRequest) => request.routeOptions.url ?? '*';
  const refusal = (limit: number, after: string) =>
    new DomainError(
      'rate_limited',
      'RATE_LIMITED',
      `Rate limit of ${limit} requests per minute on this route exceeded; retry after ${after}`,
    );
  app.decorate('spendRateTokens', async (request: FastifyRequest, tokens: number) => {
    for (let i = 0; i < tokens; i++) {
      const apiKey = apiKeyOf(request);
      const lane = store.lane(laneKey(request, routeOf(request), apiKey !== undefined));
      const counted = await new Promise<{ current: number; ttl: number } | undefined>((resolve) =>
        // Redis away: serve, as skipOnError does for the request's own token.
        store.incrIn(lane, apiKey ?? `${request.ip}`, (err, result) => resolve(err ? undefined : result), WINDOW_MS, max(request)),
      );
      if (counted && counted.current > max(request)) {
        const seconds = Math.max(1, Math.ceil(counted.ttl / 1000));
        throw refusal(max(request), `${seconds} seconds`).withHeaders({ 'retry-after': String(seconds) });
      }
    }
  });
  const settings = { store, max, laneKey, apiKeyOf, refusal };
  const notFoundHook = limitHook(settings);
  app.decorate('rateLimit', () => notFoundHook);
  app.decorateRequest('rateCounted', false);
  app.addHook('onClose', (_instance, done) => {
    store.close();
    done();
  });
  // Every route registered from here on gets the limit as its last onRequest hook: after the
  // instance's hooks and the route's own (Family A's sets `apiKeyId`, which the key reads; an admin
  // route's authentication refuses first), as @fastify/rate-limit placed it. Hooks marked to run
  // after it (the text guard of a GET route) run inside its hook, behind it: one step for both.
  app.addHook('onRoute', (route) => {
    const own: unknown = route.config?.rateLimit;
    if (own === false) return;
    if (own != null)
      throw new Error(`${route.method} ${route.url}: config.rateLimit may only be false (per-route limits are not supported)`);
    const existing = route.onRequest;
    const hooks: onRequestHookHandler[] = Array.isArray(existing) ? [...existing] : existing ? [existing] : [];
    const after = hooks.filter(runsAfterRateLimit) as unknown as OnRequestPart[];
    const limit: OnRequestPart = limitHook(settings, route.url);
    const last = after.length > 0 ? chainPreHandlers([limit, ...after]) : limit;
    route.onRequest = [...hooks.filter((hook) => !runsAfterRateLimit(hook)), last as onRequestHookHandler];
  });
}
