/**
 * The operator console's cross-family pages (overview, markets, money with the solvency checks);
 * each family adds its own pages (e.g. an orderbook market's).
 */
import { consoleRoutes } from '../api/routes/console/console.routes.js';
import { solvencyRoutes } from '../api/routes/console/solvency.routes.js';
import { moneyPageRoute } from '../api/routes/family-a/money-page.js';
import { FamilyAKeys } from '../services/family-a/family-a.keys.js';
import { cachedSolvency, type SolvencyWallet } from '../services/console/solvency.service.js';
import { hasRole } from '../../config/config.js';
import type { FeatureContext, FeatureFactory } from './feature.js';

const lamports = (sol: number) => BigInt(Math.round(sol * 1e9));

/** The platform's wallets the Money page checks, with the thresholds of those that pay (docs/operations.md). */
function platformWallets(ctx: FeatureContext): SolvencyWallet[] {
  const { config } = ctx;
  const wallets = ctx.chain.wallets;
  // The same seed Family A reads (family-a.feature.ts): KEYS_DIR, made only where Family A may make it.
  const keys = FamilyAKeys.load(config.keysDir, config.chain.kind === 'rpc' || hasRole(config, 'ledger'));
  return [
    {
      role: 'treasury',
      address: wallets.treasury.publicKey.toBase58(),
      purpose: 'fee payer of every platform transaction; pays the rent of Family A market setups',
      usdc: true,
      minLamports: lamports(config.consoleTreasuryMinSol),
    },
    {
      role: 'family A platform',
      address: keys.platform().publicKey.toBase58(),
      purpose: 'receives Family A claim transfers and creation fees',
      usdc: true,
      minLamports: null,
    },
    {
      role: 'family A x402 fee payer',
      address: keys.x402FeePayer().publicKey.toBase58(),
      purpose: 'pays the fee of every standard x402 payment',
      usdc: false,
      minLamports: lamports(config.familyA.x402FeePayerMinSol),
    },
    {
      role: 'exchange operator',
      address: wallets.exchangeOperator.publicKey.toBase58(),
      purpose: 'signs orderbook settlements; pays their fees and the rent of fill receipts and order accounts',
      usdc: false,
      minLamports: lamports(config.consoleOperatorMinSol),
    },
    {
      role: 'protocol fee',
      address: wallets.protocolFee.publicKey.toBase58(),
      purpose: 'receives Family B protocol fees (swept) and orderbook fees',
      usdc: true,
      minLamports: null,
    },
  ];
}

export const consoleFeature: FeatureFactory = (ctx) => {
  const usdcMint = ctx.chain.usdcMint.toBase58();
  const solvency = cachedSolvency({
    db: ctx.db,
    chain: ctx.chain.client,
    usdcMint,
    marketProgram: ctx.chain.programs.market.toBase58(),
    exchangeProgram: ctx.chain.programs.exchange?.toBase58() ?? null,
    wallets: platformWallets(ctx),
  });
  return {
    name: 'console',
    routes: [
      consoleRoutes({ db: ctx.db, queues: [...ctx.queues.queues.values()] }),
      solvencyRoutes(solvency),
      moneyPageRoute({ db: ctx.db, usdcMint }, ctx.adminToken, solvency),
    ],
  };
};
