/**
 * Family C market data for pollers: tops of many markets at once (`/v2/clob/prices`) and a
 * market's price history in candles. Both read what is kept for them (book tops, the candle
 * table); neither scans orders or fills per request.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { FamilyCContext } from '../../../services/family-c/context.js';
import { marketPrices, MAX_MARKET_IDS, type ManyTops } from '../../../services/family-c/market-prices.service.js';
import { MAX_CANDLES, priceHistory } from '../../../services/family-c/price-history.service.js';
import { errorResponses, MarketParams } from './schemas.js';

const Bps = Type.Union([Type.Integer(), Type.Null()]);
const PerOutcome = Type.Object({ yes: Bps, no: Bps });
const HalfBps = Type.Union([Type.Number({ multipleOf: 0.5 }), Type.Null()]);

const MarketPrices = Type.Object({
  id: Type.String({ format: 'uuid' }),
  marketId: Type.String({ description: 'textual market identifier (slug)' }),
  bestBid: PerOutcome,
  bestAsk: PerOutcome,
  mid: Type.Object(
    { yes: HalfBps, no: HalfBps },
    { description: '(bestBid + bestAsk) / 2, exact (may end in .5); null unless both exist' },
  ),
  spread: Type.Object({ yes: Bps, no: Bps }, { description: 'bestAsk − bestBid; null unless both exist' }),
  lastPrice: PerOutcome,
});

const Candle = Type.Object({
  t: Type.Integer({ description: "the candle's start, unix seconds" }),
  open: Type.Integer(),
  high: Type.Integer(),
  low: Type.Integer(),
  close: Type.Integer(),
  volume: Type.String({ description: 'outcome-token raw units traded in the candle' }),
});

const UnixSeconds = Type.Integer({ minimum: 0, maximum: 253_402_300_799, description: 'unix seconds' });

export function clobMarketDataRoutes(ctx: FamilyCContext, tops: ManyTops) {
  return async function (root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/v2/clob/prices',
      {
        schema: {
          tags: ['C'],
          summary: `Best bid, best ask, mid, spread and last price per outcome of up to ${MAX_MARKET_IDS} markets`,
          querystring: Type.Object({
            marketIds: Type.String({
              minLength: 1,
              maxLength: MAX_MARKET_IDS * 81,
              description: `comma-separated market UUIDs or slugs, at most ${MAX_MARKET_IDS}; a market named twice is answered once`,
            }),
          }),
          response: {
            200: Type.Object({
              prices: Type.Array(MarketPrices, { description: 'in the order the markets were first named' }),
              notFound: Type.Array(Type.String(), { description: 'refs (as sent) that name no orderbook market' }),
            }),
            ...errorResponses,
          },
        },
      },
      async ({ query }) => marketPrices(ctx, tops, query.marketIds),
    );

    app.get(
      '/v2/clob/markets/:id/prices-history',
      {
        schema: {
          tags: ['C'],
          summary: `Candles (OHLC in bps of the outcome, volume in raw tokens) from fills; at most ${MAX_CANDLES} buckets per request`,
          params: MarketParams,
          querystring: Type.Object({
            outcome: Type.Union([Type.Literal('yes'), Type.Literal('no')]),
            interval: Type.Union([Type.Literal('1m'), Type.Literal('5m'), Type.Literal('1h'), Type.Literal('1d')]),
            from: Type.Optional({ ...UnixSeconds, description: `unix seconds; default: ${MAX_CANDLES} buckets before to` }),
            to: Type.Optional({ ...UnixSeconds, description: 'unix seconds; default: now' }),
          }),
          response: {
            200: Type.Object({
              marketId: Type.String({ format: 'uuid' }),
              outcome: Type.Union([Type.Literal('yes'), Type.Literal('no')]),
              interval: Type.String(),
              candles: Type.Array(Candle, { description: 'buckets with fills only, oldest first' }),
            }),
            ...errorResponses,
          },
        },
      },
      async ({ params, query }) => priceHistory(ctx, params.id, query),
    );
  };
}
