/**
 * Family C smart-wallet endpoints. Writes validate their input, then ask a worker to build the
 * unsigned v0 transaction (`TxBuildPort`) and answer it as a bare object; reads come from the
 * index. Errors leave in the Family C envelope `{error: CODE, message}`.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DomainError } from '../../../domain/errors.js';
import { parseOwnerPubkey, parsePubkey, type FamilyCContext } from '../../../services/family-c/context.js';
import { balancesView, setupView } from '../../../services/family-c/smart-wallet.service.js';
import type { TxBuildPort } from '../../../services/tx-build/tx-build.port.js';
import { errorResponses, MarketRef, Pubkey, RawAmountText, TxResponse } from './schemas.js';

const WalletAmount = Type.Object({ pubkey: Pubkey, amount: RawAmountText });
const MarketAmount = Type.Object({ pubkey: Pubkey, marketId: MarketRef, amount: RawAmountText });
const PubkeyQuery = Type.Object({ pubkey: Pubkey });
const U64 = Type.String({ pattern: '^[0-9]+$' });

const Setup = Type.Object({
  pubkey: Type.String(),
  ready: Type.Boolean({ description: 'true once the smart wallet holds USDC' }),
  smartWalletBalance: U64,
  smartWallet: Type.String({ description: 'the escrow PDA ["user_escrow", pubkey]' }),
  usdcAccount: Type.String({ description: "the smart wallet's USDC token account" }),
  smartWalletExists: Type.Boolean(),
  usdcMint: Type.String(),
});

const Balances = Type.Object({
  pubkey: Type.String(),
  smartWallet: Type.String(),
  smartWalletBalance: U64,
  withdrawable: U64,
  walletBalance: U64,
  collateral: U64,
  totalCommitted: U64,
  markets: Type.Array(
    Type.Object({
      marketId: Type.String(),
      marketSlug: Type.String(),
      yesTokens: U64,
      noTokens: U64,
      committedCollateral: U64,
      committedYesTokens: U64,
      committedNoTokens: U64,
    }),
  ),
});

export function clobAccountRoutes(ctx: FamilyCContext, txBuild: TxBuildPort | undefined) {
  return async function (root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/v2/clob/account/setup',
      {
        schema: {
          tags: ['C'],
          summary: 'Smart wallet readiness: ready once it holds USDC (deposit first)',
          querystring: PubkeyQuery,
          response: { 200: Setup, ...errorResponses },
        },
      },
      async ({ query }) => setupView(ctx, parseOwnerPubkey(query.pubkey)),
    );

    app.get(
      '/v2/clob/account/balances',
      {
        schema: {
          tags: ['C'],
          summary: 'Smart wallet balance, commitments and withdrawable amount (raw units as strings)',
          querystring: PubkeyQuery,
          response: { 200: Balances, ...errorResponses },
        },
      },
      async ({ query }) => balancesView(ctx, parsePubkey(query.pubkey)),
    );

    app.post(
      '/v2/clob/account/approve',
      {
        schema: { tags: ['C'], summary: 'Deprecated: replaced by deposit (answers 410)', response: { ...errorResponses } },
      },
      async () => {
        throw new DomainError(
          'gone',
          'DEPRECATED',
          'approve is deprecated: the orderbook uses a deposit smart wallet. POST /v2/clob/account/deposit {pubkey, amount}, then check GET /v2/clob/account/setup.',
        );
      },
    );

    if (!txBuild) return;
    const write = <B extends typeof WalletAmount | typeof MarketAmount>(summary: string, body: B) => ({
      schema: { tags: ['C'], summary, body, response: { 200: TxResponse, ...errorResponses } },
    });
    app.post(
      '/v2/clob/account/deposit',
      write('Deposit USDC from the wallet into its smart wallet (unsigned v0 transaction)', WalletAmount),
      async ({ body }) => txBuild.request('clob.deposit', body),
    );
    app.post(
      '/v2/clob/account/withdraw',
      write('Withdraw USDC from the smart wallet (at most the withdrawable balance)', WalletAmount),
      async ({ body }) => txBuild.request('clob.withdraw', body),
    );
    app.post(
      '/v2/clob/account/split',
      write('Split smart-wallet USDC into YES + NO tokens (1 USDC → 1 YES + 1 NO)', MarketAmount),
      async ({ body }) => txBuild.request('clob.split', body),
    );
    app.post('/v2/clob/account/merge', write('Merge YES + NO tokens back into USDC (1 + 1 → 1 USDC)', MarketAmount), async ({ body }) =>
      txBuild.request('clob.merge', body),
    );
    app.post(
      '/v2/clob/account/redeem',
      write('Redeem winning tokens of a resolved market for USDC 1:1 into the smart wallet', MarketAmount),
      async ({ body }) => txBuild.request('clob.redeem', body),
    );
  };
}
