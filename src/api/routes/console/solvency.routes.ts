/**
 * GET /v2/admin/solvency, behind the admin token: the JSON twin of the Money page's checks
 * (/admin/money, family-a/money-page.ts). The report is read from the chain at most once per 5 s
 * (the service keeps it), so no client can make the daemon loop over the chain.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { SolvencyReport } from '../../../services/console/solvency.service.js';
import { ok } from '../../envelopes.js';
import { requireAdmin } from '../../plugins/admin-auth.js';

const Raw = (description: string) => Type.String({ pattern: '^[0-9]+$', description });
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);
const Problem = Type.Union([Type.String(), Type.Null()], { description: 'what could not be read, if anything' });

const Wallet = Type.Object({
  role: Type.String(),
  address: Type.String(),
  purpose: Type.String(),
  lamports: Raw('SOL balance, lamports'),
  minLamports: Nullable(Raw('red below this; null = the wallet only receives')),
  usdcRaw: Nullable(Raw('balance of its USDC account (raw); null = not checked')),
  ok: Type.Boolean(),
});

const FamilyBVault = Type.Object({
  marketId: Type.String(),
  address: Type.String(),
  vault: Type.String(),
  mode: Nullable(Type.String()),
  status: Nullable(Type.String()),
  vaultBalance: Raw('raw USDC in the vault'),
  yesSupply: Raw('raw YES tokens held'),
  noSupply: Raw('raw NO tokens held'),
  collateral: Raw('raw USDC backing outcome tokens (the market account)'),
  unclaimedFees: Raw('creator and protocol fees accrued, not yet claimed'),
  owedToHolders: Raw('what holders can claim whichever side wins'),
  required: Raw('max(owed to holders + unclaimed fees, collateral + unclaimed fees)'),
  shortfall: Raw('required − vault when positive'),
  ok: Type.Boolean(),
  problem: Problem,
});

const OrderbookVault = Type.Object({
  id: Type.String(),
  slug: Type.String(),
  address: Type.String(),
  vault: Type.String(),
  status: Nullable(Type.String()),
  outcome: Nullable(Type.String()),
  vaultBalance: Raw('raw USDC in the vault'),
  yesSupply: Raw('the YES mint supply'),
  noSupply: Raw('the NO mint supply'),
  completeSets: Raw('the market account’s complete sets'),
  required: Raw('max(YES, NO supply) before resolution; the winning supply after'),
  shortfall: Raw('required − vault when positive'),
  ok: Type.Boolean(),
  problem: Problem,
});

export const SolvencySchema = Type.Object({
  checkedAt: Type.String({ format: 'date-time' }),
  marketsPerFamily: Type.Integer({ description: 'the newest markets of each family checked' }),
  failing: Type.Object({ wallets: Type.Integer(), familyB: Type.Integer(), orderbook: Type.Integer() }),
  wallets: Type.Array(Wallet),
  familyB: Type.Array(FamilyBVault),
  orderbook: Type.Array(OrderbookVault),
});

export function solvencyRoutes(solvency: () => Promise<SolvencyReport>) {
  return async function (root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/v2/admin/solvency',
      {
        onRequest: requireAdmin(),
        schema: {
          tags: ['admin'],
          summary: 'Solvency checks: platform wallets, Family B vaults against liabilities, orderbook vaults against supply',
          description:
            'Read from the chain (the 500 newest markets of each family), kept 5 s. Rules: docs/operations.md, "Solvency checks".',
          response: { 200: Type.Object({ success: Type.Literal(true), data: SolvencySchema }) },
        },
      },
      async () => ok(await solvency()),
    );
  };
}
