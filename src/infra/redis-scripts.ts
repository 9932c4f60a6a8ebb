/**
 * Redis Lua scripts as typed functions: `redisScript(lua, decode)` gives `(redis, keys, args)`
 * resolving with the decoded reply. What ioredis's `defineCommand` does, without a method added
 * to the connection at run time that callers then reach through a cast:
 * - EVALSHA first, so a script's text crosses the network once per Redis server;
 * - on NOSCRIPT (a new or flushed server), EVAL, which also loads it for the next EVALSHA.
 * `decode` checks the reply's shape once, here, so callers get a value of the type they declared
 * or an error naming the script, never a silently wrong number.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

export type RedisScript<T> = (redis: Redis, keys: readonly string[], args: ReadonlyArray<string | number>) => Promise<T>;

export function redisScript<T>(name: string, lua: string, decode: (reply: unknown) => T | undefined): RedisScript<T> {
  const sha = createHash('sha1').update(lua).digest('hex');
  return async (redis, keys, args) => {
    let reply: unknown;
    try {
      reply = await redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (error) {
      // Redis names the error by its first word; ioredis types its ReplyError as `any`.
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      reply = await redis.eval(lua, keys.length, ...keys, ...args);
    }
    const value = decode(reply);
    if (value === undefined) throw new Error(`Redis script ${name} answered an unexpected reply: ${JSON.stringify(reply)}`);
    return value;
  };
}

/** An integer reply (Lua numbers come back as integers). */
export function integerReply(reply: unknown): number | undefined {
  return typeof reply === 'number' && Number.isSafeInteger(reply) ? reply : undefined;
}

/** A reply of exactly two integers. */
export function integerPairReply(reply: unknown): [number, number] | undefined {
  if (!Array.isArray(reply) || reply.length !== 2) return undefined;
  const [first, second] = reply.map(integerReply);
  return first === undefined || second === undefined ? undefined : [first, second];
}
