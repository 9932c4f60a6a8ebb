/**
 * TypeBox schemas shared by Family C routes. Quantities and USDC amounts are JSON strings of raw
 * units; prices are integer basis points; markets are addressed by UUID or slug.
 */
import { Type } from 'typebox';
import { PUBKEY_PATTERN } from '@pmx/programs';

export const Pubkey = Type.String({ pattern: PUBKEY_PATTERN, description: 'base58 Solana public key' });
export const RawAmountText = Type.String({ pattern: '^[0-9]{1,20}$', description: 'raw units (6 decimals) as a decimal string' });
export const MarketRef = Type.String({ minLength: 1, maxLength: 80, description: 'market UUID or slug' });
export const MarketParams = Type.Object({ id: MarketRef });
export const Limit = Type.Integer({ minimum: 1, maximum: 200, default: 50 });
export const Cursor = Type.String({ minLength: 1, maxLength: 200, description: 'nextCursor of the previous page, unchanged' });

export const ErrorC = Type.Object(
  { error: Type.String({ description: 'stable machine code' }), message: Type.String() },
  { additionalProperties: true, description: 'Family C error envelope' },
);
export const errorResponses = { 400: ErrorC, 403: ErrorC, 404: ErrorC, 409: ErrorC, 410: ErrorC, 429: ErrorC, 503: ErrorC };

const Prices = Type.Object({ yes: Type.Union([Type.Integer(), Type.Null()]), no: Type.Union([Type.Integer(), Type.Null()]) });

export const MarketFields = Type.Object({
  id: Type.String({ format: 'uuid' }),
  marketId: Type.String({ description: 'textual market identifier (slug)' }),
  marketPubkey: Type.String(),
  status: Type.String({ description: 'active, paused or resolved (creating while its account is being created)' }),
  outcome: Type.Union([Type.Literal('yes'), Type.Literal('no'), Type.Null()]),
  title: Type.String(),
  description: Type.String(),
  resolutionRules: Type.String(),
  category: Type.String(),
  endDate: Type.String(),
  imageUrl: Type.String(),
  yesTicker: Type.String(),
  noTicker: Type.String(),
  creatorAddress: Type.String(),
  yesMint: Type.String(),
  noMint: Type.String(),
  vault: Type.String(),
  minOrderSize: Type.String({
    description: 'Smallest order quantity accepted, outcome-token raw units (orders below it: 400 INVALID_ORDER)',
  }),
  resolvedAt: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const MarketView = Type.Object({
  market: MarketFields,
  bestBid: Prices,
  bestAsk: Prices,
  lastPrice: Prices,
});

export const TxResponse = Type.Object(
  {
    transaction: Type.String({ description: 'base64 unsigned versioned (v0) transaction; fee payer and signer: pubkey' }),
    message: Type.String(),
    blockhash: Type.String(),
    lastValidBlockHeight: Type.Integer(),
  },
  { additionalProperties: true },
);
