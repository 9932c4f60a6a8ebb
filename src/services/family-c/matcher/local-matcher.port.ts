/** The matcher port in the process that owns the market: a direct call into its batch loop. */
import { DomainError } from '../../../domain/errors.js';
import { presentPlacement } from '../orders/order.presenter.js';
import type { AcceptedOrder } from '../orders/order-intake.js';
import type { Matcher } from './matcher.js';
import type { BatchPlacement, CancelView, MatcherPort } from './matcher.port.js';
import type { CancelOutcome, PlaceManyOutcome, PlaceOutcome } from './matcher-types.js';
import { isClobMarketStatus, type ListCancelReason } from '../../../domain/orderbook/index.js';

export class LocalMatcherPort implements MatcherPort {
  constructor(private readonly matcher: Matcher) {}

  async place(order: AcceptedOrder) {
    this.assertOwned(order.marketId);
    const out = (await this.matcher.submit({ kind: 'place', order })) as PlaceOutcome;
    return presentPlacement(order.id, out.outcome, out.fills);
  }

  async placeMany(marketId: string, orders: AcceptedOrder[]): Promise<BatchPlacement[]> {
    this.assertOwned(marketId);
    const out = (await this.matcher.submit({ kind: 'placeMany', marketId, orders })) as PlaceManyOutcome;
    return out.results.map((r) =>
      r instanceof DomainError ? { error: r.toJSON() } : { placement: presentPlacement(r.order.id, r.outcome, r.fills) },
    );
  }

  async replace(oldOrderId: string, order: AcceptedOrder) {
    this.assertOwned(order.marketId);
    const out = (await this.matcher.submit({ kind: 'replace', oldOrderId, order })) as PlaceOutcome;
    return presentPlacement(order.id, out.outcome, out.fills);
  }

  async cancel(marketId: string, orderId: string): Promise<CancelView> {
    this.assertOwned(marketId);
    const out = (await this.matcher.submit({ kind: 'cancel', marketId, orderId })) as CancelOutcome;
    return { cancelled: out.cancelled.map((c) => c.order.id) };
  }

  async cancelOwner(marketId: string, owner: string, reason?: ListCancelReason): Promise<CancelView> {
    this.assertOwned(marketId);
    const out = (await this.matcher.submit({ kind: 'cancelOwner', marketId, owner, reason })) as CancelOutcome;
    return { cancelled: out.cancelled.map((c) => c.order.id) };
  }

  async cancelOrders(marketId: string, orderIds: string[], reason: ListCancelReason): Promise<CancelView> {
    this.assertOwned(marketId);
    const out = (await this.matcher.submit({ kind: 'cancelOrders', marketId, orderIds, reason })) as CancelOutcome;
    return { cancelled: out.cancelled.map((c) => c.order.id) };
  }

  /** Takes a string: the matcher queue hands it what crossed Redis; anything but a program status is refused here. */
  async marketStatus(marketId: string, status: string): Promise<void> {
    if (!isClobMarketStatus(status))
      throw new DomainError('invalid', 'INVALID_STATUS', `unknown orderbook market status ${JSON.stringify(status)}`);
    if (!this.matcher.owns(marketId)) return;
    await this.matcher.submit({ kind: 'status', marketId, status });
  }

  private assertOwned(marketId: string): void {
    if (!this.matcher.owns(marketId))
      throw new DomainError('unavailable', 'MARKET_NOT_OWNED', `No matcher owns market ${marketId} right now; try again`);
  }
}
