/**
 * The first order on a market no matcher holds yet (issue 31: it waited up to a lease tick,
 * 1.4–2.4 s): the routing port calls the matchers over Redis (matcher-calls.ts) and a matcher
 * runs a lease round at once. Real Redis; every lease timer here is an hour long, so only the
 * call can make a round happen.
 */
import os from 'node:os';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { answerMatcherCalls, matcherCallChannel, matcherCaller } from '../../src/services/family-c/matcher/matcher-calls.js';
import { MarketLeases } from '../../src/services/family-c/matcher/market-leases.js';
import { RoutingMatcherPort } from '../../src/services/family-c/matcher/routing-matcher.port.js';
import type { MatcherPort } from '../../src/services/family-c/matcher/matcher.port.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { rng } from '../helpers/rng.js';

const redis = new Redis(TEST_REDIS_URL);
const subscriber = new Redis(TEST_REDIS_URL);
const prefixes: string[] = [];
afterAll(async () => {
  for (const prefix of prefixes) await deleteKeys(prefix);
  redis.disconnect();
  subscriber.disconnect();
});

/**
 * A started matcher node on a fresh prefix, leasing from `markets` (the test adds to it);
 * `takenPromise` resolves when a market is taken.
 */
async function matcherNode() {
  const prefix = uniquePrefix('matcher-calls');
  prefixes.push(prefix);
  const markets: string[] = [];
  const taken = new Map<string, () => void>();
  const takenPromise = (marketId: string) => new Promise<void>((resolve) => taken.set(marketId, resolve));
  const leases = new MarketLeases({
    redis,
    prefix,
    node: `${os.hostname()}:0:matcher:${process.pid}:${prefix}`,
    log: pino({ level: 'silent' }),
    ttlMs: 60_000,
    tickMs: 3_600_000,
    markets: async () => [...markets],
    acquired: async (marketIds) => {
      for (const marketId of marketIds) taken.get(marketId)?.();
      return new Map();
    },
    lost: () => undefined,
  });
  await leases.start();
  return { prefix, markets, leases, takenPromise };
}

describe('calling the matchers for a market nobody holds', () => {
  it('a call on the channel makes a matcher take a new market without waiting for its tick', async () => {
    const { prefix, markets, leases, takenPromise } = await matcherNode();
    const stop = await answerMatcherCalls(subscriber, prefix, () => leases.soon());
    markets.push('m-new'); // created after the matcher's last round
    const taken = takenPromise('m-new');
    matcherCaller(redis, prefix)('m-new');
    await taken;
    expect(leases.held.has('m-new')).toBe(true);
    await stop();
    await leases.stop();
  });

  it('any bytes published on the channel are only a hint: the matcher survives them and still takes the market', async () => {
    const { prefix, markets, leases, takenPromise } = await matcherNode();
    const stop = await answerMatcherCalls(subscriber, prefix, () => leases.soon());
    const random = rng(31);
    for (let i = 0; i < 200; i++) {
      const bytes = Buffer.from(Array.from({ length: Math.floor(random() * 64) }, () => Math.floor(random() * 256)));
      await redis.publish(matcherCallChannel(prefix), bytes);
    }
    markets.push('m-after-noise');
    const taken = takenPromise('m-after-noise');
    matcherCaller(redis, prefix)('m-after-noise');
    await taken;
    expect([...leases.held]).toEqual(['m-after-noise']);
    await stop();
    await leases.stop();
  });

  it('a call while a round runs is followed by one more round (the running one may have listed the markets too early)', async () => {
    const { markets, leases, takenPromise } = await matcherNode();
    const running = leases.tick(); // lists no market
    markets.push('m-late');
    const taken = takenPromise('m-late');
    leases.soon();
    await running;
    await taken;
    expect(leases.held.has('m-late')).toBe(true);
    await leases.stop();
    leases.soon(); // after stop: ignored, no round runs against a stopped node
    expect(leases.held.size).toBe(0);
  });

  it('the routing port calls for a market without a holder while its order waits, then routes to the holder', async () => {
    const called: string[] = [];
    let holder: string | null = null;
    const answered = { place: 'placed' } as unknown as MatcherPort;
    const port = new RoutingMatcherPort({
      holder: async () => holder,
      remote: () => ({ ...answered, placeMany: async () => [] }) as unknown as MatcherPort,
      unserved: (marketId) => {
        called.push(marketId);
        holder = 'node-b'; // the call made a matcher take the market
      },
    });
    await expect(port.placeMany('m-routed', [])).resolves.toEqual([]);
    expect(called).toEqual(['m-routed']);
  });
});
