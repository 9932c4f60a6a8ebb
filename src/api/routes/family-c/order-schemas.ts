/** TypeBox schemas of signed orders and their placements, shared by the order routes (single, batch, replace). */
import { Type } from 'typebox';
import { Pubkey } from './schemas.js';

const U64 = Type.String({ pattern: '^[0-9]{1,20}$' });
export const Signature = Type.String({
  minLength: 64,
  maxLength: 100,
  description: 'Ed25519 signature, base64 (64 bytes; base58 also accepted)',
});

export const OrderMessage = Type.Object({
  market: Pubkey,
  owner: Pubkey,
  side: Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal('buy'), Type.Literal('sell')], { description: '0 buy, 1 sell' }),
  outcome: Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal('yes'), Type.Literal('no')], { description: '0 yes, 1 no' }),
  priceBps: Type.Integer({ minimum: 0, maximum: 65_535, description: 'limit 1–9999; a market order’s worst price 1–10000' }),
  quantity: U64,
  nonce: U64,
  expiry: Type.String({ pattern: '^-?[0-9]{1,19}$', description: 'unix seconds' }),
});

const PlacedFill = Type.Object({
  id: Type.String(),
  priceBps: Type.Integer(),
  quantity: Type.String(),
  usdcAmount: Type.String(),
  takerFee: Type.String(),
  makerRebate: Type.String(),
  protocolFee: Type.String(),
  fillType: Type.String(),
  outcome: Type.String(),
  makerOrderId: Type.String(),
  matchedAt: Type.String(),
});
export const Placement = Type.Object({
  orderId: Type.String(),
  status: Type.String(),
  filledQuantity: Type.String(),
  remainingQuantity: Type.String(),
  fills: Type.Array(PlacedFill),
  committedAmount: Type.String(),
});

/** The fields of one signed order to place (its body on `POST /v2/clob/orders`). */
export const placeFields = {
  orderMessage: OrderMessage,
  signature: Signature,
  orderType: Type.Optional(Type.Union([Type.Literal('limit'), Type.Literal('market')])),
  timeInForce: Type.Optional(Type.Union([Type.Literal('gtc'), Type.Literal('ioc'), Type.Literal('fok')])),
  postOnly: Type.Optional(Type.Boolean({ description: 'refused with WOULD_TAKE if any part would match on arrival' })),
};
export const PlaceBody = Type.Object(placeFields);
