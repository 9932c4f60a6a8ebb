/**
 * The orderbook's matcher runtime for Family C: in processes with the matcher role, a Matcher
 * owning the markets whose leases it holds, its queue worker and its expiry timer; in every
 * process, the routing port API routes use to reach the owner of a market.
 */
import type { Worker } from 'bullmq';
import { QueueMatcherPort, startMatcherQueueWorker } from '../../jobs/matcher-queue.js';
import { hasRole } from '../../config/config.js';
import type { FamilyCContext } from '../services/family-c/context.js';
import type { ClobEventBus } from '../services/family-c/events/event-bus.js';
import { MatcherEventPublisher } from '../services/family-c/events/matcher-events.publisher.js';
import { activeMarketIds, matchableMarketIds } from '../services/family-c/market-catalog.service.js';
import { startCatchUp } from '../services/family-c/matcher/catch-up.js';
import { LocalMatcherPort } from '../services/family-c/matcher/local-matcher.port.js';
import { ownedBooks } from '../services/family-c/matcher/matcher-metrics.js';
import { deadOnThisHost, marketLeaseKey, MarketLeases } from '../services/family-c/matcher/market-leases.js';
import os from 'node:os';
import { EXPIRY_SWEEP_MS, Matcher } from '../services/family-c/matcher/matcher.js';
import { RoutingMatcherPort } from '../services/family-c/matcher/routing-matcher.port.js';
import type { FeatureContext, RoleService } from './feature.js';
import type { ReadinessCheck } from '../services/readiness.service.js';
import { matcherCoverage } from '../services/family-c/matcher/matcher-coverage.js';
import { answerMatcherCalls, matcherCaller } from '../services/family-c/matcher/matcher-calls.js';

export interface ClobMatcherRuntime {
  port: RoutingMatcherPort;
  publisher?: MatcherEventPublisher;
  matcher?: Matcher;
  leases?: MarketLeases;
  /** Present with the matcher role. */
  service?: RoleService;
  /** /ready: `matchers` (api: every active market has a live matcher), `matcher` (this node's lease rounds). */
  readiness: Record<string, ReadinessCheck>;
  close(): Promise<void>;
}

export function clobMatcherRuntime(
  ctx: FeatureContext,
  c: FamilyCContext,
  bus: ClobEventBus,
  filled: (marketIds: string[]) => void,
): ClobMatcherRuntime {
  const prefix = ctx.config.queuePrefix;
  const log = c.log.child({ component: 'matcher' });
  const reader = ctx.redis('general', 'pmx-clob-routing');
  const remotes = new Map<string, QueueMatcherPort>();
  const remote = (node: string) => {
    let port = remotes.get(node);
    if (!port) {
      port = new QueueMatcherPort(
        node,
        ctx.redis('producer', 'pmx-clob-orders'),
        ctx.redis('blocking', 'pmx-clob-replies'),
        prefix,
        ctx.config.txBuildTimeoutMs,
      );
      remotes.set(node, port);
    }
    return port;
  };
  const holder = (marketId: string) => reader.get(marketLeaseKey(prefix, marketId));
  const close = async () => {
    await Promise.all([...remotes.values()].map((p) => p.close()));
  };
  const coverage = matcherCoverage({
    redis: reader,
    prefix,
    leaseMs: ctx.config.clob.leaseMs,
    activeMarkets: () => activeMarketIds(c),
  });
  const readiness: Record<string, ReadinessCheck> = { matchers: { role: 'api', run: coverage } };
  const callMatchers = matcherCaller(ctx.redis('producer', 'pmx-clob-matcher-calls'), prefix);
  if (!hasRole(ctx.config, 'matcher'))
    return { port: new RoutingMatcherPort({ holder, remote, unserved: callMatchers }), readiness, close };

  const publisher = new MatcherEventPublisher(bus, log, filled);
  const fees = { takerFeeBps: BigInt(c.fees.takerFeeBps), makerRebateBps: BigInt(c.fees.makerRebateBps) };
  const matcher = new Matcher({
    db: c.db,
    log,
    programId: c.programId,
    usdcMint: c.usdcMint.toBase58(),
    fees,
    nodeId: ctx.instanceId,
    events: publisher,
    lockOwners: ctx.dialect === 'postgres',
    metrics: c.metrics,
  });
  c.metrics.setOwnedBooksSource(() => ownedBooks(matcher.markets));
  const local = new LocalMatcherPort(matcher);
  const leases = new MarketLeases({
    redis: ctx.redis('general', 'pmx-clob-leases'),
    prefix,
    node: ctx.instanceId,
    log,
    ttlMs: ctx.config.clob.leaseMs,
    isDead: deadOnThisHost(os.hostname()),
    counted: (event) =>
      event === 'lost'
        ? c.metrics.leasesLost.inc()
        : c.metrics.leaseTakeovers.inc({ from: event === 'taken_free' ? 'free' : 'dead_holder' }),
    markets: () => matchableMarketIds(c),
    acquired: async (marketIds) => {
      const failed = await matcher.ownMany(marketIds);
      for (const marketId of marketIds) if (!failed.has(marketId)) publisher.announce(marketId, matcher.markets.get(marketId)!);
      return failed;
    },
    lost: (marketId) => {
      matcher.disown(marketId);
      publisher.forget(marketId);
    },
  });
  let worker: Worker | undefined;
  let sweep: NodeJS.Timeout | undefined;
  let stopCatchUp: (() => void) | undefined;
  let stopAnswering: (() => Promise<void>) | undefined;
  const service: RoleService = {
    async start() {
      worker = startMatcherQueueWorker({
        node: ctx.instanceId,
        connection: ctx.redis('blocking', 'pmx-matcher-worker'),
        prefix,
        port: local,
        log,
      });
      await leases.start();
      stopAnswering = await answerMatcherCalls(ctx.redis('general', 'pmx-clob-matcher-calls-in'), prefix, () => leases.soon());
      sweep = setInterval(() => matcher.sweepExpired(), EXPIRY_SWEEP_MS);
      sweep.unref();
      // Status notifications are best effort and give-backs are recorded by the keeper: the
      // matcher catches up with both from the database.
      stopCatchUp = startCatchUp(matcher, c.db, log);
    },
    async stop() {
      if (sweep) clearInterval(sweep);
      stopCatchUp?.();
      await stopAnswering?.();
      await worker?.close();
      await matcher.idle();
      await leases.stop();
    },
  };
  readiness.matcher = { role: 'matcher', run: async () => leases.lastRoundAge(2 * ctx.config.clob.leaseMs) };
  const unserved = (marketId: string) => {
    leases.soon(); // this node may be the market's rendezvous owner: no need to wait for the call to come back
    callMatchers(marketId);
  };
  const port = new RoutingMatcherPort({ local: { matcher, port: local }, holder, remote, unserved });
  return { port, publisher, matcher, leases, service, readiness, close };
}
