import { createHash, randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { integerPairReply, integerReply, redisScript } from '../../src/infra/redis-scripts.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

const prefix = uniquePrefix('redis-scripts');
const redis = new Redis(TEST_REDIS_URL);

afterAll(async () => {
  await deleteKeys(prefix);
  redis.disconnect();
});

/** A script text no Redis server has seen yet (a fresh comment), so its first call meets NOSCRIPT. */
function freshLua(body: string): string {
  return `-- ${randomBytes(8).toString('hex')}\n${body}`;
}

describe('redisScript', () => {
  it('runs a script unknown to the server (NOSCRIPT → EVAL), then by its sha, with keys and args in order', async () => {
    const lua = freshLua(`return redis.call('INCRBY', KEYS[1], ARGV[1])`);
    const sha = createHash('sha1').update(lua).digest('hex');
    const add = redisScript('add', lua, integerReply);
    expect(await redis.script('EXISTS', sha)).toEqual([0]);
    expect(await add(redis, [`${prefix}:n`], [5])).toBe(5);
    expect(await redis.script('EXISTS', sha)).toEqual([1]); // loaded by the EVAL fallback
    expect(await add(redis, [`${prefix}:n`], ['7'])).toBe(12);
  });

  it('decodes a pair of integers', async () => {
    const pair = redisScript('pair', freshLua(`return {tonumber(ARGV[1]), tonumber(ARGV[2])}`), integerPairReply);
    expect(await pair(redis, [], [3, 4])).toEqual([3, 4]);
  });

  it('rejects a reply of another shape, naming the script', async () => {
    const text = redisScript('says-text', freshLua(`return 'ok'`), integerReply);
    await expect(text(redis, [], [])).rejects.toThrow(/Redis script says-text answered an unexpected reply: "ok"/);
    const triple = redisScript('triple', freshLua(`return {1, 2, 3}`), integerPairReply);
    await expect(triple(redis, [], [])).rejects.toThrow(/Redis script triple/);
  });

  it('passes a script error through', async () => {
    const failing = redisScript('failing', freshLua(`return redis.error_reply('BAD nope')`), integerReply);
    await expect(failing(redis, [], [])).rejects.toThrow(/BAD nope/);
  });
});
