/**
 * The planning job plans again when a request for its market arrives while it runs (BullMQ drops
 * the deduplicated request then: src/services/family-c/settlement/plan-requests.ts), and not
 * for requests that came before it started. Requests live in real Redis, and the matcher that
 * notes them is another process than the keeper that takes them: here, another connection.
 */
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { settleMarketProcessor } from '../../jobs/processors/family-c/settle.processors.js';
import type { KeeperDeps } from '../../src/services/family-c/settlement/keeper.deps.js';
import { PlanRequests } from '../../src/services/family-c/settlement/plan-requests.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

const prefix = uniquePrefix('plan-requests');
const matcherRedis = new Redis(TEST_REDIS_URL);
const keeperRedis = new Redis(TEST_REDIS_URL);
/** The matcher's process notes; the keeper's process takes. */
const matcherSide = new PlanRequests(matcherRedis, prefix);
const keeperSide = new PlanRequests(keeperRedis, prefix);

afterAll(async () => {
  await deleteKeys(prefix);
  matcherRedis.disconnect();
  keeperRedis.disconnect();
});

const run = async (marketId: string, plan: (k: KeeperDeps, marketId: string) => Promise<number>) =>
  settleMarketProcessor({ planRequests: keeperSide } as KeeperDeps, plan)({ marketId }, {} as never, pino({ level: 'silent' }));

describe('clob.settle.market', () => {
  it('passes again for a request another process made during a pass, once per request', async () => {
    await matcherSide.note('m1'); // the request that queued this job
    await matcherSide.note('m2');
    const passes: number[] = [];
    const result = await run('m1', async () => {
      passes.push(passes.length);
      if (passes.length <= 2) await matcherSide.note('m1'); // fills matched during the first two passes
      return 3;
    });
    expect(passes).toEqual([0, 1, 2]);
    expect(result).toEqual({ batches: 9 });
    expect(await keeperSide.take('m2')).toBe(true); // another market's request is left to its own job
    expect(await keeperSide.take('m2')).toBe(false); // and taken once
  });

  it('passes once when nothing arrives meanwhile', async () => {
    let passes = 0;
    await run('m3', async () => ++passes);
    expect(passes).toBe(1);
  });

  it('leaves no request behind, and a request it never took expires', async () => {
    await matcherSide.note('m4'); // the request that queued the job
    expect(await keeperRedis.exists(`${prefix}:clob:settle-request:m4`)).toBe(1);
    await run('m4', async () => 1);
    expect(await keeperRedis.exists(`${prefix}:clob:settle-request:m4`)).toBe(0);
    await matcherSide.note('m5');
    const ttl = await keeperRedis.ttl(`${prefix}:clob:settle-request:m5`);
    expect(ttl).toBeGreaterThan(3_500);
    expect(ttl).toBeLessThanOrEqual(3_600);
  });
});
