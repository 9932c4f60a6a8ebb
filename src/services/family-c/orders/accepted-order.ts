/**
 * The accepted order as a schema: what an API node hands a matcher, in process or across the
 * matcher queue (jobs/matcher-queue.ts), which checks it like the job catalog checks its
 * payloads. The wire form is the JSON of the object acceptOrder returns, unchanged since the
 * queue began: u64 amounts travel as decimal strings (JSON has no bigint), the expiry as a
 * number (bounded to within 30 days of now, so exact). Unknown fields are tolerated, so a node
 * one version ahead may add one; a field the matcher needs may not change its type without a
 * new op name.
 */
import { Type, type Static } from 'typebox';
import { MAX_MARKET_PRICE } from '../../../domain/orderbook/index.js';

const U64 = Type.String({ pattern: '^\\d{1,20}$' });

export const AcceptedOrderSchema = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 80 }),
  marketId: Type.String({ minLength: 1, maxLength: 80 }),
  owner: Type.String({ pattern: '^[1-9A-HJ-NP-Za-km-z]{32,44}$' }),
  side: Type.Union([Type.Literal('buy'), Type.Literal('sell')]),
  outcome: Type.Union([Type.Literal('yes'), Type.Literal('no')]),
  priceBps: Type.Integer({ minimum: 1, maximum: MAX_MARKET_PRICE }),
  quantity: U64,
  nonce: U64,
  expiry: Type.Integer(),
  orderType: Type.Union([Type.Literal('limit'), Type.Literal('market')]),
  timeInForce: Type.Union([Type.Literal('gtc'), Type.Literal('ioc'), Type.Literal('fok')]),
  postOnly: Type.Boolean(),
  /** The 92 bytes of the signed message, lowercase hex. */
  message: Type.String({ pattern: '^[0-9a-f]{184}$' }),
  /** The owner's Ed25519 signature of the message's text, base64. */
  signature: Type.String({ pattern: '^[A-Za-z0-9+/]{86}==$' }),
});

/** An order that passed every check that needs no book: what the matcher is handed. */
export type AcceptedOrder = Static<typeof AcceptedOrderSchema>;
