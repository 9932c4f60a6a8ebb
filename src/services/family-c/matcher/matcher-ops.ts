/**
 * The body of each matcher operation, in memory: every check that can refuse (market state,
 * expiry, nonce, resting limits, funds — BatchLedger — and the engine's own refusals) runs before
 * the book changes, so a refusal leaves book and batch untouched; what did change is recorded in
 * the batch's writes and ledger, for the operations after it and for the commit.
 */
import { DomainError } from '../../../domain/errors.js';
import {
  checkNotExpiring,
  EXPIRY_MARGIN_SEC,
  restingCommitment,
  type BatchLedger,
  type BookMarketStatus,
  type CancelledOrder,
  type LevelDelta,
  type RestingOrder,
  type ListCancelReason,
} from '../../../domain/orderbook/index.js';
import type { AcceptedOrder } from '../orders/order-intake.js';
import type { CancelOutcome, GiveBackFill, OwnedMarket, PlaceManyOutcome, PlaceOutcome } from './matcher-types.js';
import type { BatchWrites } from './placement-writer.js';

export interface OpContext {
  ledger: BatchLedger;
  writes: BatchWrites;
  now: string;
  nowSec: number;
  /** Give-backs still pending in the database at the batch's start; each is taken out once dealt with. */
  pendingGiveBacks: Set<string>;
  /** Market statuses as the database holds them at the batch's start (for `syncStatus`). */
  statuses: Map<string, BookMarketStatus>;
}

export function placeOrder(c: OpContext, m: OwnedMarket, order: AcceptedOrder): PlaceOutcome {
  if (m.status !== 'active')
    throw new DomainError('invalid', 'MARKET_NOT_ACTIVE', `Market ${m.marketId} is ${m.status}`, { marketStatus: m.status });
  checkNotExpiring(order.expiry, c.nowSec);
  const quantity = BigInt(order.quantity);
  const check = {
    owner: order.owner,
    marketId: order.marketId,
    side: order.side,
    outcome: order.outcome,
    priceBps: order.priceBps,
    quantity,
    nonce: order.nonce,
    canRest: order.orderType === 'limit' && order.timeInForce === 'gtc',
    postOnly: order.postOnly,
  };
  c.ledger.check(check);
  const result = m.book.place({
    id: order.id,
    owner: order.owner,
    side: order.side,
    outcome: order.outcome,
    priceBps: order.priceBps,
    quantity,
    orderType: order.orderType,
    timeInForce: order.timeInForce,
    postOnly: order.postOnly,
    expiry: order.expiry,
  });
  c.ledger.placed(check, result);
  const resting = result.order.resting ? m.book.get(order.id) : undefined;
  if (resting && order.expiry < m.nextExpiry) m.nextExpiry = order.expiry;
  const fills = c.writes.placement(order, result, resting);
  return {
    kind: 'place',
    order,
    outcome: result.order,
    fills,
    makersChanged: result.makersChanged,
    cancelled: result.cancelled,
    levels: result.levels,
    matchedAt: c.now,
  };
}

/** Each order placed or refused on its own, as if submitted one after another (a refusal changes nothing). */
export function placeOrders(c: OpContext, m: OwnedMarket, orders: readonly AcceptedOrder[]): PlaceManyOutcome {
  const results = orders.map((order) => {
    try {
      return placeOrder(c, m, order);
    } catch (error) {
      if (error instanceof DomainError) return error;
      throw error;
    }
  });
  return { kind: 'placeMany', marketId: m.marketId, results };
}

/**
 * Replace: the old order off the book and the new one placed in one operation (one commit), so
 * the book never shows neither. Refused, with nothing changed, when the old order does not rest on
 * this market's book or has another owner (`ORDER_NOT_RESTING`), and when the new order is
 * refused: the old one then goes back to its place in the queue and the batch's ledger.
 */
export function replaceOrder(c: OpContext, m: OwnedMarket, oldOrderId: string, order: AcceptedOrder): PlaceOutcome {
  const node = m.book.index.get(oldOrderId);
  if (!node || node.owner !== order.owner)
    throw new DomainError('conflict', 'ORDER_NOT_RESTING', `Order ${oldOrderId} is not resting on this market for ${order.owner}`);
  const off = m.book.cancel(oldOrderId, 'user')!;
  c.ledger.cancelled(m.marketId, [off]);
  let placed: PlaceOutcome;
  try {
    placed = placeOrder(c, m, order);
  } catch (error) {
    m.book.reinstate(node);
    c.ledger.uncancelled(m.marketId, [off]);
    throw error;
  }
  c.writes.cancels([off]);
  return { ...placed, cancelled: [off, ...placed.cancelled], levels: [off.level, ...placed.levels] };
}

function cancelled(c: OpContext, m: OwnedMarket, list: CancelledOrder[], levels: LevelDelta[], reason?: string): CancelOutcome {
  c.writes.cancels(list, reason);
  c.ledger.cancelled(m.marketId, list);
  return { kind: 'cancel', marketId: m.marketId, cancelled: list, levels };
}

export function cancelOrder(c: OpContext, m: OwnedMarket, orderId: string): CancelOutcome {
  const done = m.book.cancel(orderId, 'user');
  return done ? cancelled(c, m, [done], [done.level]) : cancelled(c, m, [], []);
}

export function cancelOwner(c: OpContext, m: OwnedMarket, owner: string, reason?: ListCancelReason): CancelOutcome {
  const done = m.book.cancelOwner(owner);
  return cancelled(c, m, done.cancelled, done.levels, reason);
}

/** Cancels the named orders still resting: their owner's cancel by ids (`user`) or a reason the service found. */
export function cancelOrders(c: OpContext, m: OwnedMarket, orderIds: readonly string[], reason: ListCancelReason): CancelOutcome {
  const list: CancelledOrder[] = [];
  const levels = new Map<string, LevelDelta>();
  for (const id of orderIds) {
    const done = m.book.cancel(id, reason);
    if (!done) continue; // filled or cancelled since the index read it
    list.push(done);
    levels.set(`${done.level.outcome}:${done.level.side}:${done.level.priceBps}`, done.level); // the last state of each level
  }
  return cancelled(c, m, list, [...levels.values()], reason);
}

/** Cancels what expires within the margin, and recomputes the book's next expiry. */
export function expireOrders(c: OpContext, m: OwnedMarket): CancelOutcome {
  const done = m.book.expire(c.nowSec + EXPIRY_MARGIN_SEC);
  m.nextExpiry = m.book.earliestExpiry();
  return cancelled(c, m, done.cancelled, done.levels);
}

/** A market turned paused, active or resolved: a resolved market's resting orders are cancelled. */
export function applyStatus(c: OpContext, m: OwnedMarket, status: BookMarketStatus): CancelOutcome {
  m.status = status;
  if (status !== 'resolved') return cancelled(c, m, [], []);
  const all = m.book.restingOrders().map((o) => m.book.cancel(o.id, 'user')!);
  const levels = new Map<string, LevelDelta>();
  for (const x of all) levels.set(`${x.level.outcome}:${x.level.side}:${x.level.priceBps}`, x.level); // the last state of each level
  return cancelled(c, m, all, [...levels.values()], 'market_resolved');
}

/**
 * Gives failed fills' quantities back to the innocent parties' orders (docs/family-c.md,
 * "Settlement"): only a give-back still pending in the database, to an order that still rests on
 * a market not resolved, when its owner's free balance covers the larger commitment (the keeper
 * released the fill's hold; the owner may have used it since). Each ends with what happened.
 */
export function giveBack(c: OpContext, m: OwnedMarket, fills: readonly GiveBackFill[]): CancelOutcome {
  const restored: RestingOrder[] = [];
  const levels = new Map<string, LevelDelta>();
  for (const f of fills) {
    if (!c.pendingGiveBacks.delete(f.fillId)) continue; // dealt with already (an earlier batch, a duplicate)
    const order = m.status === 'resolved' ? undefined : m.book.get(f.orderId);
    if (!order || order.remaining + f.quantity > order.quantity) {
      c.writes.giveBackEnded(f.fillId, 'not_resting');
      continue;
    }
    const more =
      restingCommitment(order.side, order.priceBps, order.remaining + f.quantity) -
      restingCommitment(order.side, order.priceBps, order.remaining);
    if (!c.ledger.covers(order.owner, m.marketId, order.side, order.outcome, more)) {
      c.writes.giveBackEnded(f.fillId, 'not_covered');
      continue;
    }
    const done = m.book.giveBack(f.orderId, f.quantity, f.notional, f.usdc)!;
    c.ledger.recommitted(order.owner, m.marketId, order.side, order.outcome, done.commitment);
    c.writes.restored(done.order);
    c.writes.giveBackEnded(f.fillId, 'restored');
    restored.push(done.order);
    levels.set(`${done.level.outcome}:${done.level.side}:${done.level.priceBps}`, done.level);
  }
  return { kind: 'cancel', marketId: m.marketId, cancelled: [], levels: [...levels.values()], restored };
}
