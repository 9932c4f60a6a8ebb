/**
 * whenReady: the API waits for its fail-fast Redis connections (rate limiter, producers) before
 * it listens, because they fail every command until connected and the rate limiter then lets the
 * request through uncounted.
 */
import { describe, expect, it } from 'vitest';
import { createRedisConnection, whenReady } from '../../jobs/redis-connection.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';

describe('whenReady', () => {
  it('resolves true once a fresh connection is ready, and the connection then answers at once', async () => {
    const redis = createRedisConnection(TEST_REDIS_URL, 'ratelimit', 'when-ready-test');
    try {
      // Without an offline queue, a command sent before the connection is ready fails.
      expect(redis.status).not.toBe('ready');
      await expect(redis.ping()).rejects.toThrow();
      expect(await whenReady(redis, 5_000)).toBe(true);
      expect(await redis.ping()).toBe('PONG');
      expect(await whenReady(redis, 5_000)).toBe(true); // already ready
    } finally {
      redis.disconnect();
    }
  });

  it('resolves false after the timeout when Redis is away', async () => {
    const redis = createRedisConnection('redis://127.0.0.1:1', 'ratelimit', 'when-ready-away');
    try {
      const started = Date.now();
      expect(await whenReady(redis, 300)).toBe(false);
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    } finally {
      redis.disconnect();
    }
  });
});
