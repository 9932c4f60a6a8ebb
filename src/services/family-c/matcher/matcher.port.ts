/**
 * How API nodes reach the matcher that owns a market. The answers are the public views (plain
 * JSON), so the same port works in-process and across processes through the job queue.
 */
import type { SerializedDomainError } from '../../../domain/errors.js';
import type { AcceptedOrder } from '../orders/order-intake.js';
import type { PlacementView } from '../orders/order.presenter.js';
import type { ClobMarketStatus, ListCancelReason } from '../../../domain/orderbook/index.js';

export interface CancelView {
  cancelled: string[];
}

/** One order of a `placeMany`: its placement, or the refusal it would have got alone (plain JSON, as it crosses the queue). */
export type BatchPlacement = { placement: PlacementView } | { error: SerializedDomainError };

export interface MatcherPort {
  place(order: AcceptedOrder): Promise<PlacementView>;
  /** Several orders of one market in one matcher operation (one commit); answers in the order given. */
  placeMany(marketId: string, orders: AcceptedOrder[]): Promise<BatchPlacement[]>;
  /** Cancels `oldOrderId` (resting, same owner and market) and places `order`, in one operation. */
  replace(oldOrderId: string, order: AcceptedOrder): Promise<PlacementView>;
  cancel(marketId: string, orderId: string): Promise<CancelView>;
  /** Every resting order of `owner` in the market; `reason` when the service cancels them (default: the owner's cancel-all). */
  cancelOwner(marketId: string, owner: string, reason?: ListCancelReason): Promise<CancelView>;
  /** Cancels those of `orderIds` still resting, for `reason` (`user`: the owner's cancel by ids). */
  cancelOrders(marketId: string, orderIds: string[], reason: ListCancelReason): Promise<CancelView>;
  /** A market turned paused, active or resolved (resolved: its resting orders are cancelled). */
  marketStatus(marketId: string, status: ClobMarketStatus): Promise<void>;
}
