/**
 * Redis connections as BullMQ recommends for production:
 * - workers and QueueEvents (blocking commands) need `maxRetriesPerRequest: null` so they wait out a Redis
 *   restart instead of throwing;
 * - producers used inside HTTP requests set `enableOfflineQueue: false` so a request fails fast
 *   with 503 while Redis is away rather than hanging;
 * - the rate limiter's connection fails fast too (requests are then served unlimited);
 * - connections used inside HTTP requests carry a command timeout, so a frozen Redis (which keeps
 *   the socket open) cannot hang them;
 * - all reconnect with exponential backoff capped at 1 s.
 */
import { Redis, type RedisOptions } from 'ioredis';

/** Reconnect at 100, 200, 400 … ms, never more than 1 s apart: back within 1 s of Redis returning. */
const retryStrategy = (times: number): number => Math.min(100 * 2 ** Math.min(times - 1, 4), 1_000);

export type ConnectionRole = 'blocking' | 'producer' | 'ratelimit' | 'general';

export function createRedisConnection(url: string, role: ConnectionRole, name?: string): Redis {
  const options: RedisOptions = {
    retryStrategy,
    connectionName: name,
    ...(role === 'blocking' ? { maxRetriesPerRequest: null } : {}),
    // A frozen Redis (SIGSTOP, a partition) keeps the socket open and answers nothing: without a
    // command timeout every request waiting on it would hang. Writes then answer 503 within ~1 s.
    ...(role === 'producer' ? { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1_000 } : {}),
    // Every HTTP request counts itself here: fail fast while Redis is away (the limiter then lets
    // requests through) and batch the concurrent requests' commands into one round trip.
    ...(role === 'ratelimit'
      ? { enableOfflineQueue: false, maxRetriesPerRequest: 0, enableAutoPipelining: true, commandTimeout: 500 }
      : {}),
  };
  const redis = new Redis(url, options);
  // Connection errors surface through the commands that fail (503s, job retries, logged there);
  // without a listener ioredis would print each reconnect attempt as an "Unhandled error event".
  redis.on('error', () => undefined);
  return redis;
}

/**
 * Resolves once `redis` is connected, or after `timeoutMs` (false) so a daemon can still start
 * while Redis is away. Connections without an offline queue (the rate limiter's, producers') fail
 * their commands until then, and the rate limiter lets a request through when its command fails:
 * the API waits for them before it listens, so its first requests are counted too.
 */
export function whenReady(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, timeoutMs);
    timer.unref();
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', onReady);
  });
}
