/**
 * The planning job plans again when a request for its market arrives while it runs (BullMQ drops
 * the deduplicated request then: src/services/family-c/settlement/plan-requests.ts), and not
 * for requests that came before it started.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { settleMarketProcessor } from '../../jobs/processors/family-c/settle.processors.js';
import type { KeeperDeps } from '../../src/services/family-c/settlement/keeper.deps.js';
import { PlanRequests } from '../../src/services/family-c/settlement/plan-requests.js';

const run = async (k: KeeperDeps, plan: (k: KeeperDeps, marketId: string) => Promise<number>) =>
  settleMarketProcessor(k, plan)({ marketId: 'm1' }, {} as never, pino({ level: 'silent' }));

describe('clob.settle.market', () => {
  it('passes again for a request made during a pass, once per request', async () => {
    const k = { planRequests: new PlanRequests() } as KeeperDeps;
    k.planRequests.note('m1'); // the request that queued this job
    k.planRequests.note('m2');
    const passes: number[] = [];
    const result = await run(k, async () => {
      passes.push(passes.length);
      if (passes.length <= 2) k.planRequests.note('m1'); // fills matched during the first two passes
      return 3;
    });
    expect(passes).toEqual([0, 1, 2]);
    expect(result).toEqual({ batches: 9 });
    expect(k.planRequests.take('m2')).toBe(true); // another market's request is left to its own job
  });

  it('passes once when nothing arrives meanwhile', async () => {
    const k = { planRequests: new PlanRequests() } as KeeperDeps;
    let passes = 0;
    await run(k, async () => ++passes);
    expect(passes).toBe(1);
  });
});
