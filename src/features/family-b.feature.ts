/**
 * Family B: the market program's transactions (built by workers from the tx-build queue), its
 * index (full passes on a schedule, fast refreshes on change notifications), and its routes.
 */
import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { getInitializeInstruction, findNoMintPda, findYesMintPda } from '../chain/programs/market/index.js';
import {
  indexMarketRefreshProcessor,
  indexMarketsFullProcessor,
  tokenAccountApplyProcessor,
} from '../../jobs/processors/family-b/index-markets.processors.js';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { familyBReadRoutes, marketByIdHandler } from '../api/routes/family-b/market-reads.routes.js';
import { familyBWriteRoutes } from '../api/routes/family-b/market-writes.routes.js';
import type { FamilyBContext } from '../services/family-b/context.js';
import { buildClaimAllFees } from '../services/family-b/claim-all-fees.builder.js';
import { buildCreateMarket, buildInitMints } from '../services/family-b/create.builder.js';
import { buildCancel, buildClaimFees, buildResolve } from '../services/family-b/creator.builders.js';
import { decodeTokenAccount, knownMints } from '../services/family-b/market-index.service.js';
import { readProgramConfig } from '../services/family-b/market-reader.js';
import { buildRedeem, buildRedeemAll } from '../services/family-b/redeem.builders.js';
import { buildBuy, buildSell } from '../services/family-b/trade.builders.js';
import { sendAndConfirmPlatformTransaction } from '../services/platform-transaction.js';
import { PROTOCOL_FEE_SWEEP, protocolFeeSweepBuilder } from '../services/family-b/protocol-fees.service.js';
import { outboundJobId } from '../services/outbound/outbound-intents.js';
import { protocolFeeSweepProcessor } from '../../jobs/processors/family-b/protocol-fees.processor.js';
import type { Unsubscribe } from '../chain/chain-client.js';
import type { Feature, FeatureContext, FeatureFactory } from './feature.js';

/** The program's config account (admin = treasury) must exist before any market; create it once. */
async function ensureProgramInitialized(ctx: FeatureContext, b: FamilyBContext): Promise<void> {
  if (await readProgramConfig(b)) return;
  const { treasury, protocolFee } = ctx.chain.wallets;
  const instruction = getInitializeInstruction({ admin: treasury.publicKey, usdcMint: ctx.chain.usdcMint, protocolFeeWallet: protocolFee.publicKey, programId: b.programId });
  try {
    const signature = await sendAndConfirmPlatformTransaction(ctx.chain.client, [instruction], [treasury]);
    ctx.log.info({ signature, program: b.programId.toBase58() }, 'market program config initialised');
  } catch (error) {
    if (!(await readProgramConfig(b))) throw error; // another process initialised it meanwhile: fine
  }
}

export const familyBFeature: FeatureFactory = async (ctx): Promise<Feature> => {
  const b: FamilyBContext = { db: ctx.db, chain: ctx.chain.client, programId: ctx.chain.programs.market, usdcMint: ctx.chain.usdcMint, log: ctx.log.child({ feature: 'family-b' }) };
  await ensureProgramInitialized(ctx, b);
  const subscriptions: Unsubscribe[] = [];

  // Family A owns GET /v2/markets/:slug and hands all-digit params to this root decoration.
  const byId = marketByIdHandler(b);
  const routes: FastifyPluginAsync[] = [
    fp(async (app) => {
      app.decorate('familyBMarketById', (id: number) => byId(String(id)));
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
    txBuilders: {
      'market.create': (p) => buildCreateMarket(b, p as never),
      'market.initMints': (p) => buildInitMints(b, p as never),
      'market.buy': (p) => buildBuy(b, p as never),
      'market.sell': (p) => buildSell(b, p as never),
      'market.resolve': (p) => buildResolve(b, p as never),
      'market.redeem': (p) => buildRedeem(b, p as never),
      'market.claimFees': (p) => buildClaimFees(b, p as never),
      'market.cancel': (p) => buildCancel(b, p as never),
      'market.redeemAll': (p) => buildRedeemAll(b, p as never),
      'market.claimAllFees': (p) => buildClaimAllFees(b, p as never),
    },
    routes,
    async schedules() {
      await ctx.queues.get('index').upsertJobScheduler(
        'index-markets-full',
        { every: ctx.config.indexIntervalMs }, // an `every` schedule runs its first job at once
        { name: 'index.markets.full', data: { reason: 'schedule' }, opts: { removeOnComplete: 50, removeOnFail: 200 } },
      );
      if (ctx.config.protocolFeeSweepMs > 0) {
        await ctx.queues.get('platform').upsertJobScheduler(
          'market-protocol-fees-sweep',
          { every: ctx.config.protocolFeeSweepMs },
          { name: 'market.protocol-fees.sweep', data: { scheduledBy: 'family-b' }, opts: { removeOnComplete: 20, removeOnFail: 100 } },
        );
      } else {
        await ctx.queues.get('platform').removeJobScheduler('market-protocol-fees-sweep');
      }
    },
    async start() {
      const mints = await knownMints(b);
      subscriptions.push(
        ctx.chain.client.onProgramAccountChange(b.programId.toBase58(), (account) => {
          if (account.data.length < 16) return;
          const marketId = account.data.readBigUInt64LE(8);
          mints.add(findYesMintPda(marketId, b.programId)[0].toBase58());
          mints.add(findNoMintPda(marketId, b.programId)[0].toBase58());
          void ctx.queues.enqueue('index.market.refresh', { marketId: marketId.toString(), slot: account.slot }).catch((err) => b.log.warn({ err }, 'could not enqueue market refresh'));
        }),
        ctx.chain.client.onProgramAccountChange(TOKEN_PROGRAM_ID.toBase58(), (account) => {
          const row = decodeTokenAccount(account);
          if (!row || !mints.has(row.mint)) return;
          void ctx.queues
            .enqueue('index.token-account.apply', { address: row.address, mint: row.mint, owner: row.owner, amount: row.amount.toString(), slot: Number(row.slot) })
            .catch((err) => b.log.warn({ err }, 'could not enqueue token account update'));
        }),
      );
    },
    async stop() {
      for (const unsubscribe of subscriptions.splice(0)) unsubscribe();
    },
  };
};
