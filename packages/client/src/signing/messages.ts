/**
 * The other signed proofs, each returning the request body its route wants (docs/family-c.md,
 * "Reads and cancels" and "Market makers' endpoints"; docs/api.md, "Creation"). Timestamps are
 * unix seconds and must be within 60 s of the server's clock; the default is now.
 */
import type {
  CancelAllBody,
  CancelBody,
  CancelOrdersBody,
  ConfirmMarketBody,
  HeartbeatBody,
  PlaceOrderBody,
  ReplaceBody,
} from '../api-types.js';
import { signOrder, type OrderRequest } from './order-message.js';
import { signerAddress, signText, type MessageSigner } from './signer.js';

export const unixNow = (): number => Math.floor(Date.now() / 1000);

/** `POST /v2/clob/orders/{orderId}/cancel`, signed `PMX Cancel:<orderId>`. */
export async function signCancel(signer: MessageSigner, orderId: string): Promise<CancelBody> {
  return { pubkey: signerAddress(signer), signature: await signText(signer, `PMX Cancel:${orderId}`) };
}

/** `POST /v2/clob/orders/cancel-all`, signed `PMX Cancel All:<marketId|*>:<timestamp>`; usable once. */
export async function signCancelAll(signer: MessageSigner, marketId: string | '*', timestamp = unixNow()): Promise<CancelAllBody> {
  const signature = await signText(signer, `PMX Cancel All:${marketId}:${timestamp}`);
  return { pubkey: signerAddress(signer), marketId, timestamp, signature };
}

/**
 * `POST /v2/clob/orders/cancel`, signed `PMX Cancel Orders:<ids joined by ",">:<timestamp>`: 1–100
 * distinct ids exactly as the API returned them (lowercase UUIDs), in the order signed; usable once.
 */
export async function signCancelOrders(
  signer: MessageSigner,
  orderIds: readonly string[],
  timestamp = unixNow(),
): Promise<CancelOrdersBody> {
  const signature = await signText(signer, `PMX Cancel Orders:${orderIds.join(',')}:${timestamp}`);
  return { pubkey: signerAddress(signer), orderIds: [...orderIds], timestamp, signature };
}

/**
 * `POST /v2/clob/heartbeat`, signed `PMX Heartbeat:<timeoutSec>:<timestamp>`: `timeoutSec` 0
 * disarms, else 5–300. The timestamp must be newer than the owner's last accepted heartbeat's
 * (HeartbeatClock keeps a bot's heartbeats strictly increasing).
 */
export async function signHeartbeat(signer: MessageSigner, timeoutSec: number, timestamp = unixNow()): Promise<HeartbeatBody> {
  const signature = await signText(signer, `PMX Heartbeat:${timeoutSec}:${timestamp}`);
  return { pubkey: signerAddress(signer), timeoutSec, timestamp, signature };
}

/** Strictly increasing unix seconds for heartbeats (two within one second would be refused). */
export class HeartbeatClock {
  private last = 0;
  next(): number {
    this.last = Math.max(unixNow(), this.last + 1);
    return this.last;
  }
}

/**
 * `POST /v2/clob/orders/{orderId}/replace`: the old order's `PMX Cancel:<orderId>` (so that a copy of
 * a signed order cannot be used to cancel another) and the new signed order.
 */
export async function signReplace(signer: MessageSigner, orderId: string, order: OrderRequest): Promise<ReplaceBody> {
  const [cancel, placed]: [CancelBody, PlaceOrderBody] = await Promise.all([signCancel(signer, orderId), signOrder(signer, order)]);
  return { cancelSignature: cancel.signature, ...placed };
}

/**
 * Family B `POST /v2/markets/confirm`, signed `PMX Confirm:<marketId>:<timestamp>` by the market's
 * creator; `metadata` are the optional fields (title, category, tags, imageUrls, slug, …).
 */
export async function signConfirmMarket(
  signer: MessageSigner,
  marketId: number,
  metadata: Omit<ConfirmMarketBody, 'marketId' | 'wallet' | 'timestamp' | 'signature'> = {},
  timestamp = unixNow(),
): Promise<ConfirmMarketBody> {
  const signature = await signText(signer, `PMX Confirm:${marketId}:${timestamp}`);
  return { ...metadata, marketId, wallet: signerAddress(signer), timestamp, signature };
}
