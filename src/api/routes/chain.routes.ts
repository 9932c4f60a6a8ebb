/**
 * GET /v2/config (the cluster, mints, programs and the market program's counter) and, on the
 * embedded cluster only, the dev faucet POST /v2/dev/faucet. Both answer in Family B's envelope.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ChainRuntime } from '../../chain/chain-runtime.js';
import { keptChainAnswer } from '../../services/family-b/chain-answer.service.js';
import { readProgramConfig } from '../../services/family-b/market-reader.js';
import { ok } from '../envelopes.js';
import { errorResponses, Wallet } from './family-b/schemas.js';

export async function chainRoutes(root: FastifyInstance, opts: { chain: ChainRuntime }): Promise<void> {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { chain } = opts;
  // Everything but the market counter is fixed for the life of the process: encoded once.
  const fixed = {
    cluster: chain.cluster,
    rpcUrl: chain.rpcUrl,
    usdcMint: chain.usdcMint.toBase58(),
    usdcDecimals: 6,
    programs: {
      market: chain.programs.market.toBase58(),
      ...(chain.programs.exchange ? { exchange: chain.programs.exchange.toBase58() } : {}),
    },
    protocolFeeWallet: chain.wallets.protocolFee.publicKey.toBase58(),
    platformWallets: {
      treasury: chain.wallets.treasury.publicKey.toBase58(),
      exchangeOperator: chain.wallets.exchangeOperator.publicKey.toBase58(),
      protocolFee: chain.wallets.protocolFee.publicKey.toBase58(),
    },
    faucet: chain.devFaucet !== undefined,
  };
  // The answer depends on the program's config account alone (no clock, no index).
  const answer = async () => {
    const config = await readProgramConfig({ chain: chain.client, programId: chain.programs.market });
    return ok({ ...fixed, marketCounter: config ? Number(config.marketCounter) : 0, programInitialized: config !== null });
  };
  const configOwner = {}; // this route's key among the chain's kept answers
  app.get(
    '/v2/config',
    {
      schema: {
        tags: ['B'],
        summary: 'Cluster, USDC mint, program ids, platform wallets and the market counter (newest market id)',
        response: {
          200: Type.Object({ success: Type.Literal(true), data: Type.Object({}, { additionalProperties: true }) }),
          ...errorResponses,
        },
      },
    },
    async (_request, reply) => {
      // In-process chain: the serialized answer is kept while no account is written (chain/kept-answers.ts).
      const json = await keptChainAnswer(chain.client, configOwner, '', async () => reply.serialize(await answer()));
      if (json === undefined) return answer();
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(json);
    },
  );

  const faucet = chain.devFaucet;
  if (!faucet) return; // no faucet on a real cluster: the route does not exist (404)
  const RawString = (max: bigint) =>
    Type.String({ pattern: '^[0-9]{1,20}$', description: `raw units as a decimal string, at most ${max}` });
  app.post(
    '/v2/dev/faucet',
    {
      schema: {
        tags: ['B'],
        summary: 'Embedded cluster only: mint local USDC (raw units) and airdrop SOL (lamports) to a wallet',
        body: Type.Object({
          wallet: Wallet,
          usdc: Type.Optional(RawString(faucet.maxUsdcRaw)),
          sol: Type.Optional(RawString(faucet.maxLamports)),
        }),
        response: {
          200: Type.Object({
            success: Type.Literal(true),
            data: Type.Object({ usdcSignature: Type.Optional(Type.String()), solSignature: Type.Optional(Type.String()) }),
          }),
          ...errorResponses,
        },
      },
    },
    async ({ body }) => {
      const usdcRaw = body.usdc === undefined ? undefined : BigInt(body.usdc);
      const lamports = body.sol === undefined ? undefined : BigInt(body.sol);
      return ok(await faucet.fund({ wallet: body.wallet, usdcRaw, lamports }));
    },
  );
}
