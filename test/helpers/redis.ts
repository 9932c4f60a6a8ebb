/**
 * Real Redis for tests: REDIS_URL or the machine's server at 127.0.0.1:6379. Each test suite uses
 * its own key prefix so suites can run in parallel, and deletes its keys afterwards.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';

export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export function uniquePrefix(label = 'test'): string {
  return `pmxtest:${label}:${randomBytes(4).toString('hex')}`;
}

export async function deleteKeys(prefix: string): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * A suite's two connections, a publisher and a subscriber, opened before its tests and closed,
 * with the suite's keys deleted, after them. Read them inside tests (they exist from beforeAll).
 */
export function publisherAndSubscriber(prefix: string): { redis: Redis; sub: Redis } {
  const pair = {} as { redis: Redis; sub: Redis };
  beforeAll(() => {
    pair.redis = new Redis(TEST_REDIS_URL);
    pair.sub = new Redis(TEST_REDIS_URL);
  });
  afterAll(async () => {
    pair.redis?.disconnect();
    pair.sub?.disconnect();
    await deleteKeys(prefix);
  });
  return pair;
}
