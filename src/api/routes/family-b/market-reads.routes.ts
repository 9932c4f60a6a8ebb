/**
 * Family B reads and the metadata confirm: GET /v2/config, GET /v2/markets/{id} (see
 * `marketByIdHandler` in market-answer.ts, shared with Family A's slug route), the quote, positions, and
 * POST /v2/markets/confirm. Reads come from the index; the quote reads the chain so that it
 * equals what the program would execute now.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { keptChainAnswer } from '../../../services/family-b/chain-answer.service.js';
import { confirmMarket, marketImages } from '../../../services/family-b/confirm.service.js';
import { parseMarketId, type FamilyBContext } from '../../../services/family-b/context.js';
import { keptIndexAnswer, keptValue } from '../../../services/family-b/market-answer.service.js';
import { JSON_UTF8 } from './market-answer.js';
import { walletMarketPosition, walletPositions } from '../../../services/family-b/positions.service.js';
import { quoteMarket } from '../../../services/family-b/trade.builders.js';
import { ok } from '../../envelopes.js';
import { errorResponses, MarketIdParam, MarketIdParams, Quote, RawAmount, SideInput, Wallet } from './schemas.js';

const Any = Type.Object({}, { additionalProperties: true });
/** Images are shown on a website: http(s) only (no `javascript:` or `data:` URLs). */
const HttpUrl = Type.String({ format: 'uri', pattern: '^https?://', maxLength: 500 });
const Envelope = (data: ReturnType<typeof Type.Object> | ReturnType<typeof Type.Array>) =>
  Type.Object({ success: Type.Literal(true), data }, { additionalProperties: true });

export async function familyBReadRoutes(root: FastifyInstance, opts: { ctx: FamilyBContext }): Promise<void> {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ctx } = opts;
  const positionsOwner = {}; // the positions route's key among the read connection's kept answers
  // Kept serialized while no connection commits (balances and markets are index reads only).
  const positions = async (wallet: string, reply: FastifyReply) => {
    const json = await keptIndexAnswer(ctx, positionsOwner, wallet, async () => reply.serialize(ok(await walletPositions(ctx, wallet))));
    if (json === undefined) return ok(await walletPositions(ctx, wallet));
    return reply.type(JSON_UTF8).send(json);
  };
  const quoteOwner = {}; // the quote route's key among the chain's kept answers

  app.get(
    '/v2/markets/:id/quote',
    {
      schema: {
        tags: ['B'],
        summary: 'Quote a buy (USDC in) or sell (tokens in); the same math the program executes',
        params: MarketIdParams,
        querystring: Type.Object({
          side: SideInput,
          amount: RawAmount(1, 'raw units: USDC for buys, tokens for sells'),
          action: Type.Optional(Type.Union([Type.Literal('buy'), Type.Literal('sell')], { default: 'buy' })),
        }),
        response: { 200: Envelope(Quote), ...errorResponses },
      },
    },
    async ({ params, query }, reply) => {
      const action = query.action ?? 'buy';
      const quote = async () => ok(await quoteMarket(ctx, { marketId: params.id, side: query.side, amount: String(query.amount), action }));
      // The quote is the market account's bytes and the query alone (quoteOn reads no clock or slot):
      // on an in-process chain it is kept while no account is written. The free-text side goes last.
      const key = `${params.id}:${query.amount}:${action}:${query.side}`;
      const json = await keptChainAnswer(ctx.chain, quoteOwner, key, async () => reply.serialize(await quote()));
      if (json === undefined) return quote();
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(json);
    },
  );

  app.get(
    '/v2/positions/:wallet',
    {
      schema: {
        tags: ['B'],
        summary: "The wallet's positions (markets where it holds tokens)",
        params: Type.Object({ wallet: Wallet }),
        response: { 200: Envelope(Type.Array(Any)), ...errorResponses },
      },
    },
    // Not async: a kept answer is sent in the handler's own turn (no promise); else the async path.
    ({ params }, reply) => {
      const kept = keptValue<string>(ctx, positionsOwner, params.wallet);
      if (kept !== undefined) {
        void (reply as FastifyReply).type(JSON_UTF8).send(kept);
        return;
      }
      return positions(params.wallet, reply);
    },
  );

  app.get(
    '/v2/positions/:wallet/:marketId',
    {
      schema: {
        tags: ['B'],
        summary: "The wallet's position in one market (404 when the market does not exist)",
        params: Type.Object({ wallet: Wallet, marketId: MarketIdParam }),
        response: { 200: Envelope(Any), ...errorResponses },
      },
    },
    async ({ params }) => {
      const marketId = parseMarketId(params.marketId);
      return ok(await walletMarketPosition(ctx, params.wallet, String(marketId), await marketImages(ctx, marketId)));
    },
  );

  app.post(
    '/v2/markets/confirm',
    {
      schema: {
        tags: ['B'],
        summary: 'Publish the website metadata of a created market (creator only, proven by a signature; repeatable)',
        body: Type.Object({
          marketId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
          wallet: Wallet,
          timestamp: Type.Integer({ description: 'unix seconds; within 60 s of the server clock' }),
          signature: Type.String({
            minLength: 64,
            maxLength: 88,
            description: 'Ed25519 signature by `wallet` of "PMX Confirm:<marketId>:<timestamp>" (base58 or padded base64)',
          }),
          title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          description: Type.Optional(Type.String({ maxLength: 2000 })),
          category: Type.Optional(Type.String({ maxLength: 60 })),
          tags: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 20 })),
          imageUrls: Type.Optional(
            Type.Object({
              market: Type.Optional(HttpUrl),
              yes: Type.Optional(HttpUrl),
              no: Type.Optional(HttpUrl),
            }),
          ),
          slug: Type.Optional(Type.String({ minLength: 3, maxLength: 80 })),
        }),
        response: { 200: Envelope(Any), ...errorResponses },
      },
    },
    async ({ body }) => ok(await confirmMarket(ctx, body)),
  );
}
