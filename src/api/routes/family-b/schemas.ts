/** TypeBox schemas shared by Family B routes (raw units are JSON integers; ids are integers). */
import { Type } from 'typebox';
import { PUBKEY_PATTERN } from '@pmx/programs';

export const WALLET_PATTERN = PUBKEY_PATTERN;
export const Wallet = Type.String({ pattern: WALLET_PATTERN, description: 'base58 Solana address' });
/**
 * Market ids in paths: canonical decimal only (no sign, no leading zero, no exponent, no hex, no
 * spaces), at most 16 digits; the service bounds it to 2^53 − 1. `05`, `+5`, `5.0`, `0x5` or `1e3`
 * answer 400 instead of silently meaning market 5 or 1000.
 */
export const MARKET_ID_PATTERN = '^[1-9][0-9]{0,15}$';
export const MarketIdParam = Type.String({ pattern: MARKET_ID_PATTERN, description: 'integer market id (canonical decimal)' });
export const MarketIdParams = Type.Object({ id: MarketIdParam });
export const isCanonicalMarketId = (segment: string): boolean => new RegExp(MARKET_ID_PATTERN).test(segment);
export const SideInput = Type.String({ minLength: 1, maxLength: 10, description: "the market's ticker or YES/NO (case-insensitive)" });
export const RawAmount = (minimum: number, description: string) => Type.Integer({ minimum, maximum: Number.MAX_SAFE_INTEGER, description });

export const ErrorB = Type.Object(
  { success: Type.Literal(false), error: Type.String(), code: Type.Optional(Type.String()) },
  { additionalProperties: true, description: 'Family B error envelope' },
);

/** `{success:true, data}` or the idempotent variant `{success:true, <flag>:true, note}`. */
export const TxResponse = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Optional(
      Type.Object({ transaction: Type.String({ description: 'base64 unsigned transaction' }) }, { additionalProperties: true }),
    ),
    note: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

/** redeem-all / claim-all-fees: one transaction per market, plus the skipped markets with a reason. */
export const BatchResponse = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object(
      {
        transactions: Type.Array(Type.Object({ marketId: Type.Integer(), transaction: Type.String() }, { additionalProperties: true })),
        skipped: Type.Array(Type.Object({ marketId: Type.Integer(), reason: Type.String() })),
        message: Type.String(),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true },
);

export const Odds = Type.Object({ yes: Type.Number(), no: Type.Number() });

export const Quote = Type.Object({
  side: Type.Union([Type.Literal('YES'), Type.Literal('NO')]),
  action: Type.Union([Type.Literal('buy'), Type.Literal('sell')]),
  inputAmount: Type.Integer(),
  outputAmount: Type.Integer(),
  effectivePrice: Type.Number(),
  priceImpactBps: Type.Integer(),
  tradeFee: Type.Integer(),
  liquidityFee: Type.Integer(),
  effectiveAmount: Type.Optional(Type.Integer()),
  preOdds: Odds,
  postOdds: Odds,
  marketId: Type.Optional(Type.Integer()),
});

export const errorResponses = {
  400: ErrorB,
  403: ErrorB,
  404: ErrorB,
  409: ErrorB,
  429: ErrorB,
  503: ErrorB,
};
