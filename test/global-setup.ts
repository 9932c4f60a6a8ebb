/**
 * Runs once before any test file. Most suites need the real Redis; without it every hook would
 * time out one by one (minutes of noise), so the run stops at once with one clear message.
 */
import { Redis } from 'ioredis';
import { TEST_REDIS_URL } from './helpers/redis.js';

export default async function checkRedis(): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined); // the failed connect below reports it
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    throw new Error(
      `The tests need Redis at ${TEST_REDIS_URL} (set REDIS_URL to use another) and cannot reach it: ` +
        `${(err as Error).message.replace(/\.$/, '')}. Start one with \`redis-server --daemonize yes\` (bash .ci/run does this).`,
      { cause: err },
    );
  } finally {
    redis.disconnect();
  }
}
