/**
 * One owner's orders on Family C in a few calls: every request signed by its signer, every answer
 * unwrapped (a refusal throws PmxApiError). The market maker's loop of the README is built on it.
 */
import type { paths } from './generated/openapi.js';
import type { BatchResult, CancelOrdersResult, Placement, ReplaceResult } from './api-types.js';
import type { PmxClient } from './client.js';
import { unwrap } from './errors.js';
import { HeartbeatClock, signCancel, signCancelAll, signCancelOrders, signHeartbeat, signReplace } from './signing/messages.js';
import { signOrder, type OrderRequest } from './signing/order-message.js';
import { signerAddress, type MessageSigner } from './signing/signer.js';

type OrdersQuery = Omit<paths['/v2/clob/orders']['get']['parameters']['query'], 'pubkey'>;

/** Whether one result of a batch is a placement (else it is the order's refusal in the Family C envelope). */
export function isPlacement(result: BatchResult): result is Placement {
  return 'orderId' in result;
}

export class ClobTrader {
  private readonly clock = new HeartbeatClock();
  constructor(
    readonly api: PmxClient,
    readonly signer: MessageSigner,
  ) {}

  get address(): string {
    return signerAddress(this.signer);
  }

  async place(order: OrderRequest): Promise<Placement> {
    return unwrap(this.api.POST('/v2/clob/orders', { body: await signOrder(this.signer, order) }));
  }

  /** Up to 20 orders in one request; each result in request order, a placement or its refusal. */
  async placeBatch(orders: readonly OrderRequest[]): Promise<BatchResult[]> {
    const signed = await Promise.all(orders.map((o) => signOrder(this.signer, o)));
    return (await unwrap(this.api.POST('/v2/clob/orders/batch', { body: { orders: signed } }))).results;
  }

  async cancel(orderId: string) {
    return unwrap(
      this.api.POST('/v2/clob/orders/{id}/cancel', { params: { path: { id: orderId } }, body: await signCancel(this.signer, orderId) }),
    );
  }

  async cancelOrders(orderIds: readonly string[]): Promise<CancelOrdersResult> {
    return unwrap(this.api.POST('/v2/clob/orders/cancel', { body: await signCancelOrders(this.signer, orderIds) }));
  }

  /** Every resting order of the owner in one market (its UUID or slug, as signed), or in all (`*`): `{success, cancelled: [ids]}`. */
  async cancelAll(marketId: string = '*') {
    return unwrap(this.api.POST('/v2/clob/orders/cancel-all', { body: await signCancelAll(this.signer, marketId) }));
  }

  /** Cancels `orderId` and places `order` in one matcher operation. */
  async replace(orderId: string, order: OrderRequest): Promise<ReplaceResult> {
    const body = await signReplace(this.signer, orderId, order);
    return unwrap(this.api.POST('/v2/clob/orders/{id}/replace', { params: { path: { id: orderId } }, body }));
  }

  /** Arms (5–300 s) or disarms (0) the dead-man's switch; returns the deadline in unix seconds, or null. */
  async heartbeat(timeoutSec: number): Promise<number | null> {
    const body = await signHeartbeat(this.signer, timeoutSec, this.clock.next());
    return (await unwrap(this.api.POST('/v2/clob/heartbeat', { body }))).deadline;
  }

  async orders(query: OrdersQuery = {}) {
    return unwrap(this.api.GET('/v2/clob/orders', { params: { query: { ...query, pubkey: this.address } } }));
  }
}
