/**
 * Family B write endpoints. Each validates its input, then asks a worker to build the transaction
 * (`TxBuildPort`, typed by the builder catalog) and awaits the answer: an unsigned transaction
 * whose fee payer is the caller, or a refusal in the Family B envelope, or 503 when no worker
 * answers in time.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type TObject } from 'typebox';
import type { BuilderResult } from '../../../services/family-b/builder-result.js';
import type { TxBuildPort } from '../../../services/tx-build/tx-build.port.js';
import { BatchResponse, errorResponses, MarketIdParams, RawAmount, SideInput, TxResponse, Wallet } from './schemas.js';
import { builderResponse } from './send-builder-result.js';

const write = <B extends TObject>(summary: string, body: B, ok: typeof TxResponse | typeof BatchResponse = TxResponse) => ({
  schema: { tags: ['B'], summary, body, response: { 200: ok, ...errorResponses } },
});
const writeOnMarket = <B extends TObject>(summary: string, body: B) => ({
  schema: { tags: ['B'], summary, body, params: MarketIdParams, response: { 200: TxResponse, ...errorResponses } },
});

const Slippage = Type.Optional(
  Type.Integer({ minimum: 0, maximum: 5000, description: 'tolerated shortfall below the quote in bps (default 0)' }),
);
const WalletBody = Type.Object({ wallet: Wallet });
const TradeBody = (what: string) =>
  Type.Object({ wallet: Wallet, side: SideInput, amount: RawAmount(100_000, what), slippageBps: Slippage });

export async function familyBWriteRoutes(root: FastifyInstance, opts: { txBuild: TxBuildPort }): Promise<void> {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const answer = async <R extends BuilderResult>(result: Promise<R>) => builderResponse(await result);
  const { txBuild } = opts;

  app.post(
    '/v2/markets/create',
    write(
      'Create an AMM (seedAmount ≥ 1000000 raw) or Pool (seedAmount 0) market; returns the unsigned transaction and the market id',
      Type.Object({
        wallet: Wallet,
        title: Type.String({ minLength: 1, maxLength: 80 }),
        description: Type.String({ minLength: 1, maxLength: 120 }),
        yesTicker: Type.String({ minLength: 1, maxLength: 10 }),
        noTicker: Type.String({ minLength: 1, maxLength: 10 }),
        resolutionTime: Type.Integer({ description: 'Unix seconds, after 2001 and before 2096' }),
        seedAmount: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'raw USDC units; 0 = Pool mode' }),
        tradeFeeBps: Type.Integer({ minimum: 100, maximum: 400 }),
      }),
    ),
    async ({ body }) => answer(txBuild.request('market.create', { ...body, seedAmount: String(body.seedAmount) })),
  );

  app.post(
    '/v2/markets/:id/init-mints',
    writeOnMarket('Initialise the YES/NO mints (creator only; required after create)', WalletBody),
    async ({ params, body }) => answer(txBuild.request('market.initMints', { marketId: String(params.id), wallet: body.wallet })),
  );

  for (const action of ['buy', 'sell'] as const) {
    const summary =
      action === 'buy'
        ? 'Buy outcome tokens with USDC (raw units, minimum 100000); 409 on a non-active market'
        : 'Sell outcome tokens for USDC (AMM markets only; raw tokens, minimum 100000)';
    app.post(
      `/v2/markets/:id/${action}`,
      writeOnMarket(summary, TradeBody(action === 'buy' ? 'raw USDC to spend' : 'raw tokens to sell')),
      async ({ params, body }) =>
        answer(
          txBuild.request(`market.${action}`, {
            marketId: String(params.id),
            wallet: body.wallet,
            side: body.side,
            amount: String(body.amount),
            slippageBps: body.slippageBps ?? 0,
          }),
        ),
    );
  }

  app.post(
    '/v2/markets/:id/resolve',
    writeOnMarket(
      'Resolve the market (creator only, after resolutionTime); alreadyResolved when repeated',
      Type.Object({ wallet: Wallet, winningSide: SideInput }),
    ),
    async ({ params, body }) =>
      answer(txBuild.request('market.resolve', { marketId: String(params.id), wallet: body.wallet, winningSide: body.winningSide })),
  );
  app.post(
    '/v2/markets/:id/redeem',
    writeOnMarket(
      'Redeem one side after resolution or cancellation; alreadyRedeemed when nothing is held',
      Type.Object({ wallet: Wallet, side: SideInput }),
    ),
    async ({ params, body }) =>
      answer(txBuild.request('market.redeem', { marketId: String(params.id), wallet: body.wallet, side: body.side })),
  );
  app.post(
    '/v2/markets/:id/claim-fees',
    writeOnMarket('Claim the creator fees due (creator only); noFees when nothing is due', WalletBody),
    async ({ params, body }) => answer(txBuild.request('market.claimFees', { marketId: String(params.id), wallet: body.wallet })),
  );
  app.post(
    '/v2/markets/:id/cancel',
    writeOnMarket('Cancel a market that can never resolve (creator only)', WalletBody),
    async ({ params, body }) => answer(txBuild.request('market.cancel', { marketId: String(params.id), wallet: body.wallet })),
  );
  app.post(
    '/v2/redeem-all',
    write('One redemption transaction per resolved market where the wallet holds winning tokens', WalletBody, BatchResponse),
    async ({ body }) => answer(txBuild.request('market.redeemAll', { wallet: body.wallet })),
  );
  app.post(
    '/v2/claim-all-fees',
    write('One fee claim transaction per market of the creator with fees due', WalletBody, BatchResponse),
    async ({ body }) => answer(txBuild.request('market.claimAllFees', { wallet: body.wallet })),
  );
}
