/**
 * The matcher port API nodes use: the local matcher when this process owns the market (no Redis
 * on the way), else the node holding the market's lease, through that node's job queue. While a
 * market changes hands (no holder yet, or the old holder answers MARKET_NOT_OWNED) it retries
 * for a short while, then answers 503. A market nobody holds (just created, say) is announced to the
 * matchers, which then take it at once instead of at their next lease round.
 */
import { DomainError, isDomainError } from '../../../domain/errors.js';
import type { AcceptedOrder } from '../orders/order-intake.js';
import type { LocalMatcherPort } from './local-matcher.port.js';
import type { Matcher } from './matcher.js';
import type { BatchPlacement, CancelView, MatcherPort } from './matcher.port.js';
import type { PlacementView } from '../orders/order.presenter.js';
import type { ClobMarketStatus, ListCancelReason } from '../../../domain/orderbook/index.js';

export interface RoutingOptions {
  local?: { matcher: Matcher; port: LocalMatcherPort };
  /** The node holding the market's lease. */
  holder(marketId: string): Promise<string | null>;
  /** A port that reaches `node` through its queue. */
  remote(node: string): MatcherPort;
  /** How long to wait for a market to find its matcher (default 5 s). */
  waitMs?: number;
  /** Called while an order waits for a market no matcher holds: asks the matchers for a lease round now (matcher-calls.ts). */
  unserved?(marketId: string): void;
}

const RETRYABLE = new Set(['MARKET_NOT_OWNED']);

export class RoutingMatcherPort implements MatcherPort {
  constructor(private readonly o: RoutingOptions) {}

  place(order: AcceptedOrder): Promise<PlacementView> {
    return this.route(order.marketId, (p) => p.place(order));
  }

  placeMany(marketId: string, orders: AcceptedOrder[]): Promise<BatchPlacement[]> {
    return this.route(marketId, (p) => p.placeMany(marketId, orders));
  }

  replace(oldOrderId: string, order: AcceptedOrder): Promise<PlacementView> {
    return this.route(order.marketId, (p) => p.replace(oldOrderId, order));
  }

  cancel(marketId: string, orderId: string): Promise<CancelView> {
    return this.route(marketId, (p) => p.cancel(marketId, orderId));
  }

  cancelOwner(marketId: string, owner: string, reason?: ListCancelReason): Promise<CancelView> {
    return this.route(marketId, (p) => p.cancelOwner(marketId, owner, reason));
  }

  cancelOrders(marketId: string, orderIds: string[], reason: ListCancelReason): Promise<CancelView> {
    return this.route(marketId, (p) => p.cancelOrders(marketId, orderIds, reason));
  }

  /** Best effort: a market without a matcher loads its status when it is taken over. */
  async marketStatus(marketId: string, status: ClobMarketStatus): Promise<void> {
    const port = await this.portFor(marketId);
    if (port) await port.marketStatus(marketId, status);
  }

  private async portFor(marketId: string): Promise<MatcherPort | null> {
    if (this.o.local?.matcher.owns(marketId)) return this.o.local.port;
    const holder = await this.o.holder(marketId);
    return holder ? this.o.remote(holder) : null;
  }

  private async route<T>(marketId: string, call: (port: MatcherPort) => Promise<T>): Promise<T> {
    const deadline = Date.now() + (this.o.waitMs ?? 5_000);
    for (let delay = 25; ; delay = Math.min(delay * 2, 250)) {
      const port = await this.portFor(marketId);
      if (port) {
        try {
          return await call(port);
        } catch (error) {
          if (!isDomainError(error) || !RETRYABLE.has(error.code) || Date.now() > deadline) throw error;
        }
      } else if (Date.now() > deadline) {
        throw new DomainError('unavailable', 'MATCHER_UNAVAILABLE', `No matcher serves market ${marketId} right now; try again`);
      } else {
        this.o.unserved?.(marketId);
      }
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}
