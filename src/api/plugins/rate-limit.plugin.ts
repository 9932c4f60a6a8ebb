/**
 * Rate limits per route and client (spec "Limits"): reads 600/min, writes 300/min by default,
 * counted in Redis so the limits hold across API processes, through a store that reserves
 * tokens in batches and spends them locally (rate-limit.store.ts: no Redis round trip on most
 * requests; all processes together never admit more than the limit). Over the limit: 429 with
 * `Retry-After` (seconds) in the family's envelope. A request that carries `apiKeyId` (Family A
 * with a valid X-API-Key) counts per key instead of per IP. A request that stands for several
 * writes (a batch of N orders) spends the other N − 1 of its route's budget through
 * `spendRateTokens`, once its body is read.
 */
import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { DomainError } from '../../domain/errors.js';
import { BatchedRedisStore } from './rate-limit.store.js';

export interface RateLimitOptions {
  redis: Redis;
  readPerMinute: number;
  writePerMinute: number;
  nameSpace: string;
}

const READ_METHODS = new Set(['GET', 'HEAD']);
const WINDOW_MS = 60_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts `tokens` more requests of this request's route and client; 429 RATE_LIMITED when they pass the limit. */
    spendRateTokens(request: FastifyRequest, tokens: number): Promise<void>;
  }
}

export function clientKey(request: FastifyRequest): string {
  const apiKeyId = (request as FastifyRequest & { apiKeyId?: string }).apiKeyId;
  return apiKeyId ? `key:${apiKeyId}` : `ip:${request.ip}`;
}

export async function registerRateLimit(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  const store = BatchedRedisStore.create(options.redis, `${options.nameSpace}:ratelimit:`);
  const max = (request: FastifyRequest) => (READ_METHODS.has(request.method) ? options.readPerMinute : options.writePerMinute);
  // GET and HEAD share one budget (the spec counts reads together): a HEAD is a GET without body.
  const keyOf = (request: FastifyRequest) =>
    `${READ_METHODS.has(request.method) ? 'READ' : request.method}:${request.routeOptions.url ?? '*'}:${clientKey(request)}`;
  const refusal = (limit: number, after: string) =>
    new DomainError(
      'rate_limited',
      'RATE_LIMITED',
      `Rate limit of ${limit} requests per minute on this route exceeded; retry after ${after}`,
    );
  app.decorate('spendRateTokens', async (request: FastifyRequest, tokens: number) => {
    for (let i = 0; i < tokens; i++) {
      const counted = await new Promise<{ current: number; ttl: number } | undefined>((resolve) =>
        // Redis away: serve, as skipOnError does for the request's own token.
        store.incr(keyOf(request), (err, result) => resolve(err ? undefined : result), WINDOW_MS, max(request)),
      );
      if (counted && counted.current > max(request)) {
        const seconds = Math.max(1, Math.ceil(counted.ttl / 1000));
        throw refusal(max(request), `${seconds} seconds`).withHeaders({ 'retry-after': String(seconds) });
      }
    }
  });
  app.addHook('onClose', async () => store.close());
  await app.register(rateLimit, {
    global: true,
    // @fastify/rate-limit constructs `new store(params)`: each instance hands over to the one store.
    store: class SharedStore implements FastifyRateLimitStore {
      incr: FastifyRateLimitStore['incr'] = (key, callback, timeWindow, max) => store.incr(key, callback, timeWindow, max);
      child: FastifyRateLimitStore['child'] = (routeOptions) => store.child(routeOptions);
    },
    timeWindow: WINDOW_MS,
    skipOnError: true, // Redis away: serve rather than fail every request; /ready reports Redis
    max,
    keyGenerator: keyOf,
    errorResponseBuilder: (_request, context) => refusal(context.max, context.after),
  });
}
