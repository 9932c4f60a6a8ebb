/**
 * /ready's orderbook check against real Redis and real lease holders: ready while every active
 * market has a matcher, through a normal handover and a clean stop, and 503 with the reason once
 * a market (or the whole deployment) has had no matcher for longer than a takeover (two leases).
 * The probe's clock is moved instead of waiting: the lease holders write real times.
 */
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { MarketLeases, lastRoundKey } from '../../src/services/family-c/matcher/market-leases.js';
import { matcherCoverage } from '../../src/services/family-c/matcher/matcher-coverage.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

const LEASE_MS = 10_000;
const log = pino({ level: 'silent' });
const redis = new Redis(TEST_REDIS_URL);
const prefixes: string[] = [];
afterAll(async () => {
  for (const prefix of prefixes) await deleteKeys(prefix);
  redis.disconnect();
});

function setup(active: string[], matchable = active) {
  const prefix = uniquePrefix('coverage');
  prefixes.push(prefix);
  let offset = 0;
  const check = matcherCoverage({ redis, prefix, leaseMs: LEASE_MS, activeMarkets: async () => active, now: () => Date.now() + offset });
  const node = (name: string, refuse: string[] = []) =>
    new MarketLeases({
      redis,
      prefix,
      node: name,
      log,
      ttlMs: LEASE_MS,
      tickMs: 3_600_000, // rounds run when the test calls tick()
      markets: async () => matchable,
      acquired: async (marketIds) =>
        new Map(marketIds.filter((marketId) => refuse.includes(marketId)).map((marketId) => [marketId, new Error('refused by the test')])),
      lost: () => undefined,
    });
  return { prefix, check, node, later: (ms: number) => (offset = ms) };
}

describe('matcher coverage (/ready)', () => {
  it('fails at once in a deployment where no matcher ever ran', async () => {
    const { check } = setup([]);
    await expect(check()).rejects.toThrow(/no matcher node has ever run: start a process with ROLES including matcher/);
  });

  it('stays ready through a handover and a clean stop shorter than a takeover', async () => {
    const { check, node, later } = setup(['m1', 'm2', 'm3']);
    const a = node('node-a');
    await a.start();
    expect(a.held.size).toBe(3);
    await expect(check()).resolves.toBe('3 active market(s) covered');

    const b = node('node-b');
    await b.start(); // registers; the rendezvous owner of some markets changes
    await a.tick(); // hands those to b
    await b.tick(); // takes them
    expect(a.held.size + b.held.size).toBe(3);
    await expect(check()).resolves.toBe('3 active market(s) covered');

    await a.stop(); // releases; b takes them on its next round
    later(LEASE_MS);
    await expect(check()).resolves.toBe('3 active market(s) covered');
    await b.stop();
  });

  it('answers the reason once nothing renewed the markets for longer than two leases', async () => {
    const { check, node, later } = setup(['m1']);
    const a = node('node-a');
    await a.start();
    await a.stop();
    later(2 * LEASE_MS - 1_000); // the last round was a lease before its registration ran out
    await expect(check()).resolves.toBe('1 active market(s) covered');
    later(2 * LEASE_MS + 1_000);
    await expect(check()).rejects.toThrow(/^no live matcher node for 21(\.\d)? s$/);
  });

  it('names an active market no live matcher holds while matchers run', async () => {
    const { prefix, check, node, later } = setup(['m1', 'bad']);
    const a = node('node-a', ['bad']); // it cannot take `bad` (its takeover fails every round)
    await a.start();
    expect([...a.held]).toEqual(['m1']);
    await expect(check()).resolves.toBe('2 active market(s) covered'); // `bad` seen bare just now
    // Time passes with matcher rounds running: m1 renewed, `bad` still bare.
    const at = Date.now() + 2 * LEASE_MS + 1_000;
    later(2 * LEASE_MS + 1_000);
    await redis.set(lastRoundKey(prefix), String(at + LEASE_MS));
    await redis.hset(`${prefix}:clob:covered`, 'm1', String(at + LEASE_MS));
    await expect(check()).rejects.toThrow(/^1 active market\(s\) without a live matcher for longer than a takeover: bad \(21(\.\d)? s\)$/);
    await a.stop();
  });
});
