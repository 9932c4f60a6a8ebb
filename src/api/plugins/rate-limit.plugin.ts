/**
 * Rate limits per route and client (spec "Limits"): reads 600/min, writes 300/min by default,
 * counted in Redis so the limits hold across API processes, through a store that reserves
 * tokens in batches and spends them locally (rate-limit.store.ts: no Redis round trip on most
 * requests; all processes together never admit more than the limit). Over the limit: 429 with
 * `Retry-After` (seconds) in the family's envelope. A request that carries `apiKeyId` (Family A
 * with a valid X-API-Key) counts per key instead of per IP.
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

export function clientKey(request: FastifyRequest): string {
  const apiKeyId = (request as FastifyRequest & { apiKeyId?: string }).apiKeyId;
  return apiKeyId ? `key:${apiKeyId}` : `ip:${request.ip}`;
}

export async function registerRateLimit(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  const store = BatchedRedisStore.create(options.redis, `${options.nameSpace}:ratelimit:`);
  app.addHook('onClose', async () => store.close());
  await app.register(rateLimit, {
    global: true,
    // @fastify/rate-limit constructs `new store(params)`: each instance hands over to the one store.
    store: class SharedStore implements FastifyRateLimitStore {
      incr: FastifyRateLimitStore['incr'] = (key, callback, timeWindow, max) => store.incr(key, callback, timeWindow, max);
      child: FastifyRateLimitStore['child'] = (routeOptions) => store.child(routeOptions);
    },
    timeWindow: 60_000,
    skipOnError: true, // Redis away: serve rather than fail every request; /ready reports Redis
    max: (request) => (READ_METHODS.has(request.method) ? options.readPerMinute : options.writePerMinute),
    // GET and HEAD share one budget (the spec counts reads together): a HEAD is a GET without body.
    keyGenerator: (request) =>
      `${READ_METHODS.has(request.method) ? 'READ' : request.method}:${request.routeOptions.url ?? '*'}:${clientKey(request)}`,
    errorResponseBuilder: (_request, context) =>
      new DomainError(
        'rate_limited',
        'RATE_LIMITED',
        `Rate limit of ${context.max} requests per minute on this route exceeded; retry after ${context.after}`,
      ),
  });
}
