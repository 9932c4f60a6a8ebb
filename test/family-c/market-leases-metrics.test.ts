/**
 * What the market leases count for the metrics, on real Redis: a free lease taken, a lease taken
 * from a dead holder on this host (a crashed predecessor), and a lease lost to another node.
 */
import os from 'node:os';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { deadOnThisHost, MarketLeases, type LeaseEvent } from '../../src/services/family-c/matcher/market-leases.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

const redis = new Redis(TEST_REDIS_URL);
const prefixes: string[] = [];
afterAll(async () => {
  for (const prefix of prefixes) await deleteKeys(prefix);
  redis.disconnect();
});

/** A pid that runs no process on this machine (above Linux's pid_max of 2^22). */
const DEAD_PID = 4_194_304 + 17;

function leases(node: string): { leases: MarketLeases; events: LeaseEvent[]; prefix: string } {
  const prefix = uniquePrefix('leases');
  prefixes.push(prefix);
  const events: LeaseEvent[] = [];
  const leases = new MarketLeases({
    redis,
    prefix,
    node,
    log: pino({ level: 'silent' }),
    ttlMs: 60_000,
    tickMs: 3_600_000, // rounds run when the test calls tick()
    isDead: deadOnThisHost(os.hostname()),
    markets: async () => ['m1'],
    acquired: async () => new Map(),
    lost: () => undefined,
    counted: (event) => events.push(event),
  });
  return { leases, events, prefix };
}

describe('market lease metrics', () => {
  it('counts a free lease taken, then the lease lost to another node', async () => {
    const { leases: l, events, prefix } = leases(`${os.hostname()}:0:matcher:${process.pid}:aaaa`);
    await l.start();
    expect(events).toEqual(['taken_free']);
    expect(l.held.has('m1')).toBe(true);
    await redis.set(`${prefix}:clob:lease:m1`, 'another-node', 'PX', 60_000); // another node took it over
    await l.tick();
    expect(events).toEqual(['taken_free', 'lost']);
    expect(l.held.has('m1')).toBe(false);
    await l.stop();
  });

  it('counts a lease taken from a dead holder on this host as taken_from_dead', async () => {
    const { leases: l, events, prefix } = leases(`${os.hostname()}:0:matcher:${process.pid}:bbbb`);
    await redis.set(`${prefix}:clob:lease:m1`, `${os.hostname()}:0:matcher:${DEAD_PID}:dead`, 'PX', 60_000);
    await l.start();
    expect(events).toEqual(['taken_from_dead']);
    expect(await redis.get(`${prefix}:clob:lease:m1`)).toBe(`${os.hostname()}:0:matcher:${process.pid}:bbbb`);
    await l.stop();
  });
});
