/**
 * Family A: slug markets paid by x402: routes, and the builders of its platform transactions
 * (deliveries, payments, payouts, refunds, market setup), which the shared outbound feature sends,
 * and the money sweep (held payments refunded after their grace, expired creations removed).
 */
import { familyARoutes } from '../api/routes/family-a/index.js';
import { humanToRaw } from '../domain/family-a/money.js';
import { caip2For } from '../services/family-a/x402-standard/networks.js';
import { ApiKeyService } from '../services/family-a/api-keys.service.js';
import { familyABuilders } from '../services/family-a/family-a.builders.js';
import { QUOTE_TTL_MS, type FamilyADeps, type FamilyASettings } from '../services/family-a/family-a.deps.js';
import { FamilyAKeys } from '../services/family-a/family-a.keys.js';
import { outboundJobId } from '../services/outbound/outbound-intents.js';
import { ensurePlatformAccounts } from '../services/family-a/platform-accounts.service.js';
import { moneySweepProcessor } from '../../jobs/processors/family-a/money-sweep.processor.js';
import { x402ResumeProcessor } from '../../jobs/processors/family-a/x402-resume.processor.js';
import { fundDevFeePayer } from '../services/family-a/x402-standard/x402-resume.service.js';
import { hasRole } from '../../config/config.js';
import type { FeatureContext, FeatureFactory } from './feature.js';

export function familyASettings(ctx: Pick<FeatureContext, 'config' | 'chain'>): FamilyASettings {
  const a = ctx.config.familyA;
  return {
    // Every process on the embedded cluster says localnet, not only the one that runs the ledger.
    network: a.network ?? (ctx.config.chain.kind === 'embedded' ? 'solana-localnet' : 'solana-devnet'),
    targetPriceRaw: humanToRaw(a.targetPrice, 'FAMILY_A_TARGET_PRICE'),
    defaultMarketLimit: BigInt(a.marketLimit),
    creationFeeUsdcRaw: BigInt(a.creationFeeUsdc) * 1_000_000n,
    creationFeeLamports: BigInt(Math.round(a.creationFeeSol * 1e9)),
    creationWindowSec: a.creationWindowSec,
    deliveryWaitMs: a.deliveryWaitMs,
    quoteTtlMs: QUOTE_TTL_MS,
    presentGraceSec: a.presentGraceSec,
    x402: {
      network: a.x402Network ?? caip2For(a.network),
      maxComputeUnits: a.x402MaxComputeUnits,
      maxPriceMicroLamports: a.x402MaxPriceMicroLamports,
      accountFeeRaw: humanToRaw(a.x402AccountFeeUsdc, 'FAMILY_A_X402_ACCOUNT_FEE_USDC'),
      feePayerMinLamports: BigInt(Math.round(a.x402FeePayerMinSol * 1e9)),
      payerPerMinute: a.x402PayerPerMinute,
    },
  };
}

export const familyAFeature: FeatureFactory = (ctx) => {
  const deps: FamilyADeps = {
    db: ctx.db,
    dialect: ctx.dialect,
    chain: ctx.chain.client,
    usdcMint: ctx.chain.usdcMint.toBase58(),
    treasury: ctx.chain.wallets.treasury,
    // Without the ledger role on the embedded cluster, the ledger process's seed must be there.
    keys: FamilyAKeys.load(ctx.config.keysDir, ctx.config.chain.kind === 'rpc' || hasRole(ctx.config, 'ledger')),
    settings: familyASettings(ctx),
    log: ctx.log.child({ feature: 'family-a' }),
    dispatchOutbound: async (id, attempt) => {
      await ctx.queues.enqueue('outbound.send', { outboundId: id }, { jobId: outboundJobId(id, attempt) });
    },
  };
  const apiKeys = new ApiKeyService(ctx.db, ctx.config.familyA.requireApiKey);
  return {
    name: 'family-a',
    processors: {
      'family-a.money.sweep': moneySweepProcessor(deps),
      'family-a.x402.resume': x402ResumeProcessor(deps, ctx.metrics),
    },
    outboundBuilders: familyABuilders(deps),
    routes: familyARoutes(deps, apiKeys),
    async schedules() {
      await ensurePlatformAccounts(deps);
      await fundDevFeePayer(deps, ctx.chain.devFaucet);
      await ctx.queues.schedule(
        'family-a-x402-resume',
        'family-a.x402.resume',
        { scheduledBy: 'family-a' },
        ctx.config.familyA.sweepIntervalMs,
      );
      await ctx.queues.schedule(
        'family-a-money-sweep',
        'family-a.money.sweep',
        { scheduledBy: 'family-a' },
        ctx.config.familyA.sweepIntervalMs,
      );
    },
  };
};
