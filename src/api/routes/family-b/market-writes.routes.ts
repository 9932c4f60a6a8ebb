/**
 * Family B write endpoints. Each validates its input, then enqueues a `tx.build` job and awaits
 * the worker's answer (jobs/tx-build.client.ts): an unsigned transaction whose fee payer is the
 * caller, or a refusal in the Family B envelope, or 503 when no worker answers in time.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TxBuildClient } from '../../../../jobs/tx-build.client.js';
import type { BuilderResult } from '../../../services/family-b/builder-result.js';
import { BatchResponse, errorResponses, MarketIdParams, RawAmount, SideInput, TxResponse, Wallet } from './schemas.js';
import { builderResponse } from './send-builder-result.js';

const write = (summary: string, body: ReturnType<typeof Type.Object>, params?: typeof MarketIdParams, ok: typeof TxResponse | typeof BatchResponse = TxResponse) => ({
  schema: { tags: ['B'], summary, body, ...(params ? { params } : {}), response: { 200: ok, ...errorResponses } },
});

const Slippage = Type.Optional(Type.Integer({ minimum: 0, maximum: 5000, description: 'tolerated shortfall below the quote in bps (default 0)' }));

export async function familyBWriteRoutes(app: FastifyInstance, opts: { txBuild: TxBuildClient }): Promise<void> {
  const build = async (kind: string, params: Record<string, unknown>) => builderResponse(await opts.txBuild.request<BuilderResult>(kind, params));
  const id = (request: { params: unknown }) => String((request.params as { id: number }).id);

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
    async (request) => {
      const body = request.body as Record<string, unknown>;
      return build('market.create', { ...body, seedAmount: String(body.seedAmount) });
    },
  );

  app.post('/v2/markets/:id/init-mints', write('Initialise the YES/NO mints (creator only; required after create)', Type.Object({ wallet: Wallet }), MarketIdParams), async (request) =>
    build('market.initMints', { marketId: id(request), wallet: (request.body as { wallet: string }).wallet }),
  );

  const trade = (action: 'buy' | 'sell') => async (request: { params: unknown; body: unknown }) => {
    const body = request.body as { wallet: string; side: string; amount: number; slippageBps?: number };
    return build(`market.${action}`, { marketId: id(request), wallet: body.wallet, side: body.side, amount: String(body.amount), slippageBps: body.slippageBps ?? 0 });
  };
  app.post(
    '/v2/markets/:id/buy',
    write('Buy outcome tokens with USDC (raw units, minimum 100000); 409 on a non-active market', Type.Object({ wallet: Wallet, side: SideInput, amount: RawAmount(100_000, 'raw USDC to spend'), slippageBps: Slippage }), MarketIdParams),
    trade('buy'),
  );
  app.post(
    '/v2/markets/:id/sell',
    write('Sell outcome tokens for USDC (AMM markets only; raw tokens, minimum 100000)', Type.Object({ wallet: Wallet, side: SideInput, amount: RawAmount(100_000, 'raw tokens to sell'), slippageBps: Slippage }), MarketIdParams),
    trade('sell'),
  );
  app.post('/v2/markets/:id/resolve', write('Resolve the market (creator only, after resolutionTime); alreadyResolved when repeated', Type.Object({ wallet: Wallet, winningSide: SideInput }), MarketIdParams), async (request) => {
    const body = request.body as { wallet: string; winningSide: string };
    return build('market.resolve', { marketId: id(request), wallet: body.wallet, winningSide: body.winningSide });
  });
  app.post('/v2/markets/:id/redeem', write('Redeem one side after resolution or cancellation; alreadyRedeemed when nothing is held', Type.Object({ wallet: Wallet, side: SideInput }), MarketIdParams), async (request) => {
    const body = request.body as { wallet: string; side: string };
    return build('market.redeem', { marketId: id(request), wallet: body.wallet, side: body.side });
  });
  app.post('/v2/markets/:id/claim-fees', write('Claim the creator fees due (creator only); noFees when nothing is due', Type.Object({ wallet: Wallet }), MarketIdParams), async (request) =>
    build('market.claimFees', { marketId: id(request), wallet: (request.body as { wallet: string }).wallet }),
  );
  app.post('/v2/markets/:id/cancel', write('Cancel a market that can never resolve (creator only)', Type.Object({ wallet: Wallet }), MarketIdParams), async (request) =>
    build('market.cancel', { marketId: id(request), wallet: (request.body as { wallet: string }).wallet }),
  );
  app.post('/v2/redeem-all', write('One redemption transaction per resolved market where the wallet holds winning tokens', Type.Object({ wallet: Wallet }), undefined, BatchResponse), async (request) =>
    build('market.redeemAll', { wallet: (request.body as { wallet: string }).wallet }),
  );
  app.post('/v2/claim-all-fees', write('One fee claim transaction per market of the creator with fees due', Type.Object({ wallet: Wallet }), undefined, BatchResponse), async (request) =>
    build('market.claimAllFees', { wallet: (request.body as { wallet: string }).wallet }),
  );
}
