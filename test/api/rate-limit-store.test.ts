/**
 * The batched rate-limit store on its own, against real Redis: exact for one process, a new
 * window after the old one ends, a failed reservation reported (the plugin then serves), and a
 * reservation never leaving more than the largest batch in one process's hands.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { BatchedRedisStore, largestBatch } from '../../src/api/plugins/rate-limit.store.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

type Counted = { current: number; ttl: number };

function incr(store: BatchedRedisStore, key: string, windowMs: number, max: number): Promise<Counted> {
  return new Promise((resolve, reject) => store.incr(key, (err, r) => (err ? reject(err) : resolve(r!)), windowMs, max));
}

describe('BatchedRedisStore', () => {
  const prefix = uniquePrefix('rl-store');
  const redis = new Redis(TEST_REDIS_URL);
  const store = BatchedRedisStore.create(redis, `${prefix}:`);

  afterAll(async () => {
    store.close();
    redis.disconnect();
    await deleteKeys(prefix);
  });

  it('counts 1..max then over the limit, exactly, in one process', async () => {
    const seen: number[] = [];
    for (let i = 0; i < 105; i++) seen.push((await incr(store, 'exact', 60_000, 100)).current);
    expect(seen.slice(0, 100)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(seen.slice(100).every((c) => c > 100)).toBe(true);
  });

  it('reserves in growing batches, never holding more than max/20', async () => {
    for (let i = 0; i < 50; i++) await incr(store, 'batches', 60_000, 1_000);
    // 50 requests spent; Redis counted what was reserved: more than spent, by less than one batch.
    const counted = Number(await redis.get(`${prefix}:batches`));
    expect(counted).toBeGreaterThanOrEqual(50);
    expect(counted - 50).toBeLessThanOrEqual(largestBatch(1_000));
    expect(largestBatch(1_000)).toBe(50);
    expect(largestBatch(10)).toBe(1);
  });

  it('starts a new window once the old one has ended (Redis expiry and the local window agree)', async () => {
    for (let i = 0; i < 3; i++) expect((await incr(store, 'window', 300, 3)).current).toBe(i + 1);
    const refused = await incr(store, 'window', 300, 3);
    expect(refused.current).toBeGreaterThan(3);
    expect(refused.ttl).toBeGreaterThan(0);
    expect(refused.ttl).toBeLessThanOrEqual(300);
    const deadline = Date.now() + 5_000;
    let next = refused;
    while (next.current > 3 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      next = await incr(store, 'window', 300, 3);
    }
    expect(next.current).toBe(1);
  });

  it('reports a reservation Redis cannot answer as an error (the plugin then serves the request)', async () => {
    const dead = new Redis('redis://127.0.0.1:1', {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    const offline = BatchedRedisStore.create(dead, `${prefix}:dead:`);
    try {
      await expect(incr(offline, 'k', 60_000, 10)).rejects.toThrow();
    } finally {
      offline.close();
      dead.disconnect();
    }
  });
});
