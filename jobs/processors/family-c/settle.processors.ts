/** The settlement keeper's, the positions job's and the candles job's processors: each one call into a service, safe to run twice. */
import type { KeeperDeps } from '../../../src/services/family-c/settlement/keeper.deps.js';
import { planMarket } from '../../../src/services/family-c/settlement/settle-planner.js';
import { sweepSettlement } from '../../../src/services/family-c/settlement/settle-sweep.js';
import { applySettledFills, applyWalletMoves } from '../../../src/services/family-c/positions.service.js';
import { applyCandleChanges } from '../../../src/services/family-c/candles.service.js';
import type { FamilyCContext } from '../../../src/services/family-c/context.js';
import type { Processor } from '../../processor.js';
import { yieldToEventLoop } from '../../../src/infra/time-slice.js';

/**
 * Plans the market (which first stops the batches in flight of a paused or resolved market:
 * settle-halt.ts), again while requests for the market arrive during a pass (plan-requests.ts).
 */
export function settleMarketProcessor(
  k: KeeperDeps,
  plan: (k: KeeperDeps, marketId: string) => Promise<number> = planMarket,
): Processor<'clob.settle.market'> {
  return async ({ marketId }) => {
    await k.planRequests.take(marketId); // this run answers what came before it
    let batches = 0;
    do batches += await plan(k, marketId);
    while (await k.planRequests.take(marketId));
    return { batches };
  };
}

export function settleSweepProcessor(k: KeeperDeps, plan: (marketId: string) => Promise<void>): Processor<'clob.settle.sweep'> {
  return async () => sweepSettlement(k, plan);
}

export function positionsApplyProcessor(c: FamilyCContext): Processor<'clob.positions.apply'> {
  return async () => {
    let fills = 0;
    // 500 fills a transaction; a backlog of many thousands yields between transactions.
    for (let n = await applySettledFills(c); n > 0; n = await applySettledFills(c)) {
      fills += n;
      await yieldToEventLoop();
    }
    return { fills, wallets: await applyWalletMoves(c) };
  };
}

export function candlesApplyProcessor(c: FamilyCContext): Processor<'clob.candles.apply'> {
  return async () => {
    let fills = 0;
    // Until nothing is left: fills matched during the run are taken by it (500 a transaction).
    for (let n = await applyCandleChanges(c); n > 0; n = await applyCandleChanges(c)) {
      fills += n;
      await yieldToEventLoop();
    }
    return { fills };
  };
}
