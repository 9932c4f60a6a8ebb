/**
 * The public shapes of orders and fills (public facts: quantities and USDC as strings of raw
 * units, prices in bps). An order's stored status is the book's; it reads `settling` while the
 * book is done with it (filled, or cancelled after partial fills) but fills of it are still on
 * their way to the chain.
 */
import type { FillRow } from '../../../../db/repositories/clob-fills.repository.js';
import { normalizeFill } from '../../../../db/repositories/clob-fills.repository.js';
import { normalizeOrder, type OrderRow } from '../../../../db/repositories/clob-orders.repository.js';
import type { OrderOutcome } from '../../../domain/orderbook/index.js';
import type { StoredFill } from '../matcher/placement-writer.js';

export function presentOrder(row: OrderRow, unsettledFills = 0) {
  const o = normalizeOrder(row);
  const status = o.status === 'filled' && unsettledFills > 0 ? 'settling' : o.status;
  return {
    id: o.id,
    marketId: o.market_id,
    ownerPubkey: o.owner,
    side: o.side,
    outcome: o.outcome,
    priceBps: o.price_bps,
    originalQuantity: o.quantity.toString(),
    remainingQuantity: o.remaining.toString(),
    filledQuantity: (o.quantity - o.remaining).toString(),
    committedAmount: o.committed.toString(),
    status,
    orderType: o.order_type,
    timeInForce: o.time_in_force,
    postOnly: o.post_only === 1,
    nonce: o.nonce,
    expiry: Number(o.expiry),
    cancelReason: o.cancel_reason,
    createdAt: o.created_at,
    updatedAt: o.updated_at,
  };
}

export type OrderView = ReturnType<typeof presentOrder>;

/** A fill as the placement response lists it (public facts "Place-order response"). */
export function presentPlacedFill(f: StoredFill) {
  return {
    id: f.id,
    priceBps: f.priceBps,
    quantity: f.quantity.toString(),
    usdcAmount: f.usdcAmount.toString(),
    takerFee: f.takerFee.toString(),
    makerRebate: f.makerRebate.toString(),
    protocolFee: f.protocolFee.toString(),
    fillType: f.fillType,
    outcome: f.outcome,
    makerOrderId: f.makerOrderId,
    matchedAt: f.matchedAt,
  };
}

export function presentPlacement(orderId: string, outcome: OrderOutcome, fills: StoredFill[]) {
  return {
    orderId,
    status: outcome.status,
    filledQuantity: outcome.filled.toString(),
    remainingQuantity: outcome.remaining.toString(),
    fills: fills.map(presentPlacedFill),
    committedAmount: outcome.committedAmount.toString(),
  };
}

export type PlacementView = ReturnType<typeof presentPlacement>;

/** The spec's Fill shape, plus retryCount and failureReason. */
export function presentFill(row: FillRow) {
  const f = normalizeFill(row);
  return {
    id: f.id,
    marketId: f.market_id,
    makerOrderId: f.maker_order_id,
    takerOrderId: f.taker_order_id,
    makerPubkey: f.maker_owner,
    takerPubkey: f.taker_owner,
    takerSide: f.taker_side,
    outcome: f.outcome,
    priceBps: f.price_bps,
    quantity: f.quantity.toString(),
    usdcAmount: f.usdc_amount.toString(),
    makerUsdcAmount: f.maker_usdc.toString(),
    takerFee: f.taker_fee.toString(),
    makerRebate: f.maker_rebate.toString(),
    protocolFee: f.protocol_fee.toString(),
    fillType: f.fill_type,
    status: f.status,
    retryCount: f.retry_count,
    failureReason: f.failure_reason,
    batchId: f.batch_id,
    settleTx: f.settle_tx,
    matchedAt: f.matched_at,
    settledAt: f.settled_at,
  };
}

export type FillView = ReturnType<typeof presentFill>;
