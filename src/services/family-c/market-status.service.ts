/**
 * What follows a market's status change (an operator's pause, resume or resolve, or the index
 * finding a status the chain changed), in this order:
 * 1. resolved: `market_resolved` is published with the outcome, before anything that follows
 *    from it, so a client sees the resolution before its orders' cancellations;
 * 2. the lease round runs at once (matcher role), so a newly active market finds its matcher
 *    without waiting a lease tick;
 * 3. the market's matcher is told (it stops or resumes matching; resolved: it cancels the resting
 *    orders). Best effort: the matcher also catches up with statuses from the database
 *    (matcher/catch-up.ts), so a failure is logged, not thrown;
 * 4. settlement is planned: resumed, its waiting fills settle; resolved, what never settled fails;
 * 5. resolved: positions are brought up to date (redemption values follow the outcome).
 * Steps 4 and 5 enqueue jobs; a failure to enqueue is logged, and the sweeps pick the work up.
 */
import type { ClobMarketStatus } from '@pmx/programs';
import type { FamilyCContext } from './context.js';
import type { ClobEventBus } from './events/event-bus.js';
import { marketOutcome } from './market-catalog.service.js';
import type { MarketLeases } from './matcher/market-leases.js';
import type { MatcherPort } from './matcher/matcher.port.js';

export interface MarketStatusDeps {
  ctx: Pick<FamilyCContext, 'db' | 'log'>;
  bus: Pick<ClobEventBus, 'publishMarket'>;
  /** Present in processes with the matcher role. */
  leases?: Pick<MarketLeases, 'tick'>;
  matcher: Pick<MatcherPort, 'marketStatus'>;
  planSettlement(marketId: string): Promise<void>;
  updatePositions(reason: string): Promise<void>;
}

export class MarketStatusService {
  constructor(private readonly deps: MarketStatusDeps) {}

  async changed(marketId: string, status: ClobMarketStatus): Promise<void> {
    const { ctx, bus, leases, matcher } = this.deps;
    const log = ctx.log;
    if (status === 'resolved') {
      await bus.publishMarket(marketId, [{ event: 'market_resolved', marketId, status, outcome: await marketOutcome(ctx, marketId) }]);
    }
    await leases?.tick();
    await matcher
      .marketStatus(marketId, status)
      .catch((err: Error) => log.warn({ err, market: marketId, status }, 'matcher not told of a status change'));
    await this.deps
      .planSettlement(marketId)
      .catch((err: Error) => log.warn({ err, market: marketId }, 'could not enqueue settlement planning'));
    if (status === 'resolved') {
      await this.deps
        .updatePositions('resolution')
        .catch((err: Error) => log.warn({ err, market: marketId }, 'could not enqueue positions'));
    }
  }
}
