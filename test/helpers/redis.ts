/**
 * Real Redis for tests: REDIS_URL or the machine's server at 127.0.0.1:6379. Each test suite uses
 * its own key prefix so suites can run in parallel, and deletes its keys afterwards.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

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
