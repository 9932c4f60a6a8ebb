/**
 * Redis connections as BullMQ recommends for production:
 * - workers and QueueEvents (blocking commands) need `maxRetriesPerRequest: null` so they wait out a Redis
 *   restart instead of throwing;
 * - producers used inside HTTP requests set `enableOfflineQueue: false` so a request fails fast
 *   with 503 while Redis is away rather than hanging;
 * - both reconnect with capped exponential backoff.
 */
import { Redis, type RedisOptions } from 'ioredis';

const retryStrategy = (times: number): number => Math.max(Math.min(Math.exp(times), 20_000), 1_000);

export type ConnectionRole = 'blocking' | 'producer' | 'general';

export function createRedisConnection(url: string, role: ConnectionRole, name?: string): Redis {
  const options: RedisOptions = {
    retryStrategy,
    connectionName: name,
    ...(role === 'blocking' ? { maxRetriesPerRequest: null } : {}),
    ...(role === 'producer' ? { enableOfflineQueue: false, maxRetriesPerRequest: 1 } : {}),
  };
  return new Redis(url, options);
}
