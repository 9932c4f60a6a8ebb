/**
 * Family C's signed order (docs/family-c.md, "Placement"): the 92-byte little-endian message
 *
 *   0 market (32) · 32 owner (32) · 64 side u8 (0 buy, 1 sell) · 65 outcome u8 (0 yes, 1 no)
 *   66 priceBps u16 · 68 quantity u64 · 76 nonce u64 · 84 expiry i64 (unix seconds)
 *
 * and the UTF-8 text the wallet signs, `PMX Order:\n` + lowercase hex of those bytes (embedded
 * wallets refuse to sign bytes that look like a transaction). Written from the docs, not imported
 * from @pmx/programs (a bot installs this package alone); the tests compare the two byte for byte.
 */
import type { PlaceOrderBody } from '../api-types.js';
import { publicKeyBytes, toHex } from './encoding.js';
import { signerAddress, signText, type MessageSigner } from './signer.js';

export const ORDER_MESSAGE_LENGTH = 92;
const U64_MAX = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;

export interface OrderFields {
  /** The market's on-chain account (`marketPubkey`), base58. */
  market: string;
  /** The owner's wallet, base58: the signer of the order. */
  owner: string;
  side: 'buy' | 'sell';
  outcome: 'yes' | 'no';
  /** 1–9999 for a limit order; a market order's worst price 1–10000. */
  priceBps: number;
  /** Outcome tokens, raw units (6 decimals). */
  quantity: bigint;
  /** Unique per owner (the API refuses a reused one with DUPLICATE_NONCE). */
  nonce: bigint;
  /** Unix seconds; the order stops matching 60 s before it. */
  expiry: bigint;
}

export function encodeOrderMessage(o: OrderFields): Uint8Array {
  if (!Number.isInteger(o.priceBps) || o.priceBps < 0 || o.priceBps > 0xffff) throw new RangeError('priceBps must be a u16');
  if (o.quantity < 0n || o.quantity > U64_MAX) throw new RangeError('quantity must be a u64');
  if (o.nonce < 0n || o.nonce > U64_MAX) throw new RangeError('nonce must be a u64');
  if (o.expiry < I64_MIN || o.expiry > I64_MAX) throw new RangeError('expiry must be an i64');
  const bytes = new Uint8Array(ORDER_MESSAGE_LENGTH);
  const view = new DataView(bytes.buffer);
  bytes.set(publicKeyBytes(o.market), 0);
  bytes.set(publicKeyBytes(o.owner), 32);
  view.setUint8(64, o.side === 'buy' ? 0 : 1);
  view.setUint8(65, o.outcome === 'yes' ? 0 : 1);
  view.setUint16(66, o.priceBps, true);
  view.setBigUint64(68, o.quantity, true);
  view.setBigUint64(76, o.nonce, true);
  view.setBigInt64(84, o.expiry, true);
  return bytes;
}

export function orderSigningText(o: OrderFields): string {
  return `PMX Order:\n${toHex(encodeOrderMessage(o))}`;
}

// Nonces: microseconds since the epoch at start, then one more per order, so that a bot that
// restarts never reuses one it signed before (unless it signed over a million per second).
let lastNonce = BigInt(Date.now()) * 1000n;
export function nextNonce(): bigint {
  const now = BigInt(Date.now()) * 1000n;
  lastNonce = now > lastNonce ? now : lastNonce + 1n;
  return lastNonce;
}

export interface OrderRequest {
  market: string;
  side: 'buy' | 'sell';
  outcome: 'yes' | 'no';
  priceBps: number;
  quantity: bigint;
  /** Default: nextNonce(). */
  nonce?: bigint;
  /** Unix seconds; default an hour from now. */
  expiry?: bigint | number;
  orderType?: 'limit' | 'market';
  timeInForce?: 'gtc' | 'ioc' | 'fok';
  postOnly?: boolean;
}

/** The body of `POST /v2/clob/orders` (and one entry of a batch): the message the signer signed, and its signature. */
export async function signOrder(signer: MessageSigner, order: OrderRequest): Promise<PlaceOrderBody> {
  const fields: OrderFields = {
    market: order.market,
    owner: signerAddress(signer),
    side: order.side,
    outcome: order.outcome,
    priceBps: order.priceBps,
    quantity: order.quantity,
    nonce: order.nonce ?? nextNonce(),
    expiry: BigInt(order.expiry ?? Math.floor(Date.now() / 1000) + 3600),
  };
  const body: PlaceOrderBody = {
    orderMessage: {
      market: fields.market,
      owner: fields.owner,
      side: fields.side === 'buy' ? 0 : 1,
      outcome: fields.outcome === 'yes' ? 0 : 1,
      priceBps: fields.priceBps,
      quantity: fields.quantity.toString(),
      nonce: fields.nonce.toString(),
      expiry: fields.expiry.toString(),
    },
    signature: await signText(signer, orderSigningText(fields)),
  };
  if (order.orderType !== undefined) body.orderType = order.orderType;
  if (order.timeInForce !== undefined) body.timeInForce = order.timeInForce;
  if (order.postOnly !== undefined) body.postOnly = order.postOnly;
  return body;
}
