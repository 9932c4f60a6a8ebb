/**
 * Redis connections as BullMQ recommends for production:
 * - workers and QueueEvents (blocking commands) need `maxRetriesPerRequest: null` so they wait out a Redis
 *   restart instead of throwing;
 * - producers used inside HTTP requests set `enableOfflineQueue: false` so a request fails fast
 *   with 503 while Redis is away rather than hanging;
 * - the rate limiter's connection fails fast too (requests are then served unlimited);
 * - all reconnect with capped exponential backoff.
 */
import { Redis, type RedisOptions } from 'ioredis';

const retryStrategy = (times: number): number => Math.max(Math.min(Math.exp(times), 20_000), 1_000);

export type ConnectionRole = 'blocking' | 'producer' | 'ratelimit' | 'general';

export function createRedisConnection(url: string, role: ConnectionRole, name?: string): Redis {
  const options: RedisOptions = {
    retryStrategy,
    connectionName: name,
    ...(role === 'blocking' ? { maxRetriesPerRequest: null } : {}),
    ...(role === 'producer' ? { enableOfflineQueue: false, maxRetriesPerRequest: 1 } : {}),
    // Every HTTP request counts itself here: fail fast while Redis is away (the limiter then lets
    // requests through) and batch the concurrent requests' commands into one round trip.
    ...(role === 'ratelimit' ? { enableOfflineQueue: false, maxRetriesPerRequest: 0, enableAutoPipelining: true } : {}),
  };
  return new Redis(url, options);
}
