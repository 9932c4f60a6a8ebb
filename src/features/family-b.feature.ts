/**
 * Family B: the market program's transactions (built by workers from the tx-build queue), its
 * index (full passes on a schedule, fast refreshes on change notifications), and its routes.
 */
import {
  indexMarketRefreshProcessor,
  indexMarketsFullProcessor,
  tokenAccountApplyProcessor,
} from '../../jobs/processors/family-b/index-markets.processors.js';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { marketByIdHandler } from '../api/routes/family-b/market-answer.js';
import { familyBReadRoutes } from '../api/routes/family-b/market-reads.routes.js';
import { familyBWriteRoutes } from '../api/routes/family-b/market-writes.routes.js';
import type { FamilyBContext } from '../services/family-b/context.js';
import { IndexSubscriptions } from '../services/family-b/index-subscriptions.js';
import { ensureProgramInitialized } from '../services/family-b/program-setup.service.js';
import { familyBTxBuilders } from '../services/family-b/family-b.tx-builders.js';
import { PROTOCOL_FEE_SWEEP, protocolFeeSweepBuilder } from '../services/family-b/protocol-fees.service.js';
import { outboundJobId } from '../services/outbound/outbound-intents.js';
import { protocolFeeSweepProcessor } from '../../jobs/processors/family-b/protocol-fees.processor.js';
import type { Feature, FeatureFactory } from './feature.js';

export const familyBFeature: FeatureFactory = async (ctx): Promise<Feature> => {
  const b: FamilyBContext = {
    db: ctx.db,
    chain: ctx.chain.client,
    programId: ctx.chain.programs.market,
    usdcMint: ctx.chain.usdcMint,
    log: ctx.log.child({ feature: 'family-b' }),
  };
  await ensureProgramInitialized(b, ctx.chain.wallets, ctx.chain.usdcMint);
  const subscriptions = new IndexSubscriptions(b, {
    marketChanged: (marketId, slot) =>
      void ctx.queues
        .enqueue('index.market.refresh', { marketId: marketId.toString(), slot })
        .catch((err) => b.log.warn({ err }, 'could not enqueue market refresh')),
    tokenAccountChanged: (row) =>
      void ctx.queues
        .enqueue('index.token-account.apply', {
          address: row.address,
          mint: row.mint,
          owner: row.owner,
          amount: row.amount.toString(),
          slot: Number(row.slot),
        })
        .catch((err) => b.log.warn({ err }, 'could not enqueue token account update')),
  });

  // Family A owns GET /v2/markets/:slug and hands all-digit params to this root decoration.
  const byId = marketByIdHandler(b);
  const routes: FastifyPluginAsync[] = [
    fp(async (app) => {
      app.decorate('familyBMarketById', (id: number, _request: unknown, reply: FastifyReply) => byId(String(id), reply));
    }),
    async (app) => familyBReadRoutes(app, { ctx: b }),
  ];
  if (ctx.txBuild) {
    const txBuild = ctx.txBuild;
    routes.push(async (app) => familyBWriteRoutes(app, { txBuild }));
  }

  return {
    name: 'family-b',
    processors: {
      'index.markets.full': indexMarketsFullProcessor(b),
      'index.market.refresh': indexMarketRefreshProcessor(b),
      'index.token-account.apply': tokenAccountApplyProcessor(b),
      'market.protocol-fees.sweep': protocolFeeSweepProcessor(b, async (id) => {
        await ctx.queues.enqueue('outbound.send', { outboundId: id }, { jobId: outboundJobId(id) });
      }),
    },
    outboundBuilders: { [PROTOCOL_FEE_SWEEP]: protocolFeeSweepBuilder(b, ctx.chain.wallets.protocolFee) },
    txBuilders: familyBTxBuilders(b),
    routes,
    async schedules() {
      // An `every` schedule runs its first job at once.
      await ctx.queues.schedule('index-markets-full', 'index.markets.full', { reason: 'schedule' }, ctx.config.indexIntervalMs);
      if (ctx.config.protocolFeeSweepMs > 0) {
        await ctx.queues.schedule(
          'market-protocol-fees-sweep',
          'market.protocol-fees.sweep',
          { scheduledBy: 'family-b' },
          ctx.config.protocolFeeSweepMs,
        );
      } else {
        await ctx.queues.unschedule('market-protocol-fees-sweep', 'market.protocol-fees.sweep');
      }
    },
    async start() {
      await subscriptions.start();
    },
    async stop() {
      subscriptions.stop();
    },
  };
};
