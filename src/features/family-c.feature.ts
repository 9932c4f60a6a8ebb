/**
 * Family C, the orderbook: the exchange program's config (ensured at start), orderbook markets
 * (operator routes, the creation intent sent by the outbound feature), smart-wallet transactions
 * (built by workers from the tx-build queue), the index of markets and smart wallets (scheduled
 * passes, notification-driven refreshes), the settlement keeper, and the read routes. What a
 * status change or a balance change sets off is decided by services (market-status.service.ts,
 * balance-changes.service.ts); this module connects them to the index, the routes and the jobs.
 */
import { PublicKey } from '@solana/web3.js';
import { hasRole } from '../../config/config.js';
import {
  clobIndexFullProcessor,
  clobIndexMarketProcessor,
  clobIndexTokenAccountsProcessor,
  clobIndexWalletProcessor,
} from '../../jobs/processors/family-c/index.processors.js';
import { clobAccountRoutes } from '../api/routes/family-c/account.routes.js';
import { clobAdminRoutes } from '../api/routes/family-c/admin.routes.js';
import { clobMarketRoutes } from '../api/routes/family-c/markets.routes.js';
import { clobMarketDataRoutes } from '../api/routes/family-c/market-data.routes.js';
import { clobCounts } from '../services/family-c/clob-counts.service.js';
import { ClobBookReads } from '../services/family-c/book-reads.js';
import { ClobEventBus } from '../services/family-c/events/event-bus.js';
import type { MarketChange } from '../services/family-c/market-index.service.js';
import { MarketStatusService } from '../services/family-c/market-status.service.js';
import { clobOrderRoutes } from '../api/routes/family-c/orders.routes.js';
import { clobMakerOrderRoutes } from '../api/routes/family-c/maker-orders.routes.js';
import { clobFillRoutes } from '../api/routes/family-c/fills.routes.js';
import { orderbookPageRoutes } from '../api/routes/family-c/orderbook-page.js';
import { marketConsoleRoutes } from '../api/routes/family-c/market-console.routes.js';
import { clobMatcherRuntime } from './clob-matcher.js';
import { heartbeatSweepProcessor } from '../../jobs/processors/family-c/heartbeat.processor.js';
import { HEARTBEAT_SWEEP_MS } from '../services/family-c/orders/heartbeat.service.js';
import {
  candlesApplyProcessor,
  positionsApplyProcessor,
  settleMarketProcessor,
  settleSweepProcessor,
} from '../../jobs/processors/family-c/settle.processors.js';
import type { KeeperDeps } from '../services/family-c/settlement/keeper.deps.js';
import { settleBuilder } from '../services/family-c/settlement/settle.builder.js';
import { CLOB_SETTLE } from '../services/family-c/settlement/settle-group.js';
import type { ClobMarketStatus } from '@pmx/programs';
import { Coalescer } from '../infra/coalescer.js';
import { PlanRequests } from '../services/family-c/settlement/plan-requests.js';
import { POSITIONS_REQUEST } from '../services/family-c/positions-requests.js';
import { ProofsInFlight } from '../services/family-c/settlement/proofs-in-flight.js';
import { cancelOwnerInAllMarkets } from '../services/family-c/orders/orders.service.js';
import { clobWebSockets } from './clob-websockets.js';
import type { FamilyCContext } from '../services/family-c/context.js';
import { ClobIndexSubscriptions } from '../services/family-c/index-subscriptions.js';
import { CLOB_MARKET_SETUP, clobMarketSetupBuilder } from '../services/family-c/market-setup.builder.js';
import { ensureExchangeInitialized } from '../services/family-c/program-setup.service.js';
import { smartWalletAddresses } from '../services/family-c/smart-wallet.service.js';
import { tokenAccountChanged, tokenAccountsChanged } from '../services/family-c/balance-changes.service.js';
import { familyCTxBuilders } from '../services/family-c/wallet.builders.js';
import { coverAllWallets } from '../services/family-c/wallet-coverage.service.js';
import { outboundJobId } from '../services/outbound/outbound-intents.js';
import type { Feature, FeatureContext, FeatureFactory } from './feature.js';

/**
 * How long fills' markets gather before their planning and candle requests go (one Redis SET per
 * market and two BullMQ adds per window): a fill's settlement is planned at most this much later,
 * well inside the sweep's 2 s that catches any request lost; candles show it as much later.
 */
export const FILLED_GATHER_MS = 100;

export function familyCContext(ctx: FeatureContext): FamilyCContext {
  const programId = ctx.chain.programs.exchange;
  if (!programId) throw new Error('Family C needs the exchange program id (chain runtime without programs.exchange)');
  return {
    db: ctx.db,
    chain: ctx.chain.client,
    programId,
    usdcMint: ctx.chain.usdcMint,
    operator: ctx.chain.wallets.exchangeOperator,
    feeWallet: ctx.chain.wallets.protocolFee.publicKey,
    fees: { takerFeeBps: ctx.config.clob.takerFeeBps, makerRebateBps: ctx.config.clob.makerRebateBps },
    log: ctx.log.child({ feature: 'family-c' }),
    metrics: ctx.metrics.clob,
    dispatchOutbound: async (id) => {
      await ctx.queues.enqueue('outbound.send', { outboundId: id }, { jobId: outboundJobId(id) });
    },
  };
}

export const familyCFeature: FeatureFactory = async (ctx): Promise<Feature> => {
  const c = familyCContext(ctx);
  await ensureExchangeInitialized(c);
  ctx.metrics.clob.setCountsSource(() => clobCounts(c));
  const warn = (what: string) => (err: Error) => c.log.warn({ err }, `could not enqueue ${what}`);
  // A settlement changes about five token accounts at once: one job re-reads what changed within 10 ms.
  const changedTokenAccounts = new Coalescer(
    (addresses) => void ctx.queues.enqueue('clob.index.token-accounts', { addresses }).catch(warn('token account update')),
  );
  const subscriptions = new ClobIndexSubscriptions(c, {
    marketChanged: (address) => void ctx.queues.enqueue('clob.index.market', { address }).catch(warn('market refresh')),
    walletSeen: (owner) => {
      subscriptions.watchAccount(smartWalletAddresses(c, new PublicKey(owner)).escrowUsdc.toBase58());
      void ctx.queues.enqueue('clob.index.wallet', { owner }).catch(warn('wallet index'));
    },
    tokenAccountChanged: (address) => changedTokenAccounts.add(address),
  });
  const eventsRedis = ctx.redis('general', 'pmx-clob-events');
  const bus = new ClobEventBus(eventsRedis, ctx.config.queuePrefix, c.log);
  const planRequests = new PlanRequests(eventsRedis, ctx.config.queuePrefix);
  const planSettlement = (marketId: string) =>
    planRequests.request(marketId, (id) =>
      ctx.queues.enqueue('clob.settle.market', { marketId: id }, { deduplication: { id: `clob-settle-${id}` } }),
    );
  // Requests within POSITIONS_GATHER_MS are one run (positions-requests.ts).
  const updatePositions = async (reason: string) => {
    await ctx.queues.enqueue('clob.positions.apply', { reason }, POSITIONS_REQUEST);
  };
  const updateCandles = (reason: string) =>
    ctx.queues.enqueue('clob.candles.apply', { reason }, { deduplication: { id: 'clob-candles' } }).catch(warn('price candles'));
  // Every matcher batch with fills asks for its markets' planning and the candles: a Redis SET and
  // two BullMQ adds per batch, 6 % of the API + matcher process under issue 31's placement load.
  // Asked once per market per FILLED_GATHER_MS instead: the keeper plans every matched fill of the
  // market. At 10 ms a window still held one batch (a SQLite batch of single orders commits every
  // ~70 ms under that load), so each batch paid its own adds (3.3 % of the process, issue 31's
  // thirteenth pass); at 100 ms one window serves the batches of a tenth of a second.
  const filledMarkets = new Coalescer((marketIds) => {
    for (const m of marketIds) void planSettlement(m).catch(warn('settlement planning'));
    void updateCandles('fills');
  }, FILLED_GATHER_MS);
  const runtime = clobMatcherRuntime(ctx, c, bus, (marketIds) => {
    for (const m of marketIds) filledMarkets.add(m);
  });
  const keeper: KeeperDeps = {
    c,
    bus,
    log: c.log.child({ component: 'keeper' }),
    fees: { takerFeeBps: BigInt(c.fees.takerFeeBps), makerRebateBps: BigInt(c.fees.makerRebateBps) },
    maxBatchesInFlight: ctx.config.clob.maxBatchesInFlight,
    proofsInFlight: new ProofsInFlight(),
    planRequests,
    holdAccountChanges: () => changedTokenAccounts.hold(),
    afterSettlement: async (marketId, { fillsFailed }) => {
      await updatePositions('settlement');
      // Candles count a fill from its match; of what ends a batch, only a failure changes them.
      if (fillsFailed) await updateCandles('settlement');
      if (marketId) await planSettlement(marketId);
    },
    cancelOwnerEverywhere: async (owner) => {
      const cancelled = await cancelOwnerInAllMarkets(c, runtime.port, owner);
      c.log.warn({ owner, cancelled: cancelled.length }, 'owner could not pay a fill: resting orders cancelled');
    },
    cancelOrder: async (marketId, orderId) => {
      const { cancelled } = await runtime.port.cancelOrders(marketId, [orderId], 'invalid_signature');
      c.log.warn({ market: marketId, order: orderId, cancelled: cancelled.length }, 'order with a refused proof cancelled');
    },
  };
  const tops = new ClobBookReads(bus, runtime.publisher);
  const ws = hasRole(ctx.config, 'api') ? clobWebSockets(ctx, c, bus) : undefined;
  const marketStatus = new MarketStatusService({
    ctx: c,
    bus,
    leases: runtime.leases,
    matcher: runtime.port,
    planSettlement,
    updatePositions,
  });
  const statusChanged = (marketId: string, status: ClobMarketStatus) => marketStatus.changed(marketId, status);
  const balanceChanges = { ctx: c, bus, matcher: runtime.port, updatePositions };
  const hooks = {
    marketStatusChanged: (change: MarketChange) => statusChanged(change.marketId, change.status),
    tokenAccountIndexed: (_address: string, owner: string | null) => tokenAccountChanged(balanceChanges, owner),
    tokenAccountsIndexed: (changes: ReadonlyArray<{ owner: string | null }>) =>
      tokenAccountsChanged(
        balanceChanges,
        changes.map((c) => c.owner),
      ),
    walletsIndexed: () => coverAllWallets(c, runtime.port),
  };
  return {
    name: 'family-c',
    processors: {
      'clob.index.full': clobIndexFullProcessor(c, hooks),
      'clob.index.market': clobIndexMarketProcessor(c, hooks),
      'clob.index.wallet': clobIndexWalletProcessor(c, hooks),
      'clob.index.token-accounts': clobIndexTokenAccountsProcessor(c, hooks),
      'clob.settle.market': settleMarketProcessor(keeper),
      'clob.settle.sweep': settleSweepProcessor(keeper, planSettlement),
      'clob.positions.apply': positionsApplyProcessor(c),
      'clob.candles.apply': candlesApplyProcessor(c),
      'clob.heartbeats.sweep': heartbeatSweepProcessor(c, runtime.port),
    },
    outboundBuilders: { [CLOB_MARKET_SETUP]: clobMarketSetupBuilder(c), [CLOB_SETTLE]: settleBuilder(keeper) },
    txBuilders: familyCTxBuilders(c),
    routes: [
      clobMarketRoutes(c, tops),
      clobMarketDataRoutes(c, tops),
      clobOrderRoutes(c, runtime.port),
      clobMakerOrderRoutes(c, runtime.port),
      clobFillRoutes(c, tops),
      orderbookPageRoutes(c, ctx.adminToken, planSettlement),
      marketConsoleRoutes(c, { tops, matcher: runtime.port, adminToken: ctx.adminToken, onStatusChanged: statusChanged }),
      clobAccountRoutes(c, ctx.txBuild),
      clobAdminRoutes(c, tops, {
        adminToken: ctx.adminToken,
        createWaitMs: ctx.config.clob.createWaitMs,
        onStatusChanged: statusChanged,
        onRedrive: planSettlement,
      }),
      ...(ws ? [ws.routes] : []),
    ],
    roleServices: { ...(runtime.service ? { matcher: runtime.service } : {}), ...(ws ? { api: ws.service } : {}) },
    readiness: runtime.readiness,
    async schedules() {
      await ctx.queues.schedule('clob-index-full', 'clob.index.full', { reason: 'schedule' }, ctx.config.indexIntervalMs);
      await ctx.queues.schedule('clob-settle-sweep', 'clob.settle.sweep', { scheduledBy: 'family-c' }, ctx.config.clob.settleSweepMs);
      await ctx.queues.schedule('clob-positions', 'clob.positions.apply', { reason: 'schedule' }, ctx.config.clob.positionsIntervalMs);
      await ctx.queues.schedule('clob-candles', 'clob.candles.apply', { reason: 'schedule' }, ctx.config.clob.candlesIntervalMs);
      await ctx.queues.schedule('clob-heartbeats', 'clob.heartbeats.sweep', { scheduledBy: 'family-c' }, HEARTBEAT_SWEEP_MS);
    },
    async start() {
      await subscriptions.start();
    },
    async stop() {
      subscriptions.stop();
      changedTokenAccounts.drain();
      filledMarkets.drain();
    },
    close: () => runtime.close(),
  };
};
