/**
 * The public shapes of orders and fills (public facts: quantities and USDC as strings of raw
 * units, prices in bps). An order's stored status is the book's; how it reads also follows its
 * fills (docs/family-c.md, "What an order reads"):
 * - `filledQuantity` counts only fills that did not fail: quantity − remaining − the failed fills'
 *   quantity, except a fill given back to this order (the give-back already restored `remaining`);
 * - an order that no longer rests and whose fills all failed reads `cancelled` with
 *   `cancelReason` `fill_failed` (unless the service cancelled it for a reason of its own,
 *   `insufficient_balance` or `invalid_signature`, which is kept); so does a `filled` order some of whose fills failed (the book is
 *   done with it and not all of it traded); a resting order reads `open` again when none of its
 *   fills stands;
 * - it reads `settling` while the book is done with it (filled) but fills of it are still on
 *   their way to the chain.
 * Computed when read, not stored: an operator may re-drive a failed fill.
 */
import type { FillRow, OrderFillTally } from '../../../../db/repositories/clob-fills.repository.js';
import { normalizeFill } from '../../../../db/repositories/clob-fills.repository.js';
import { normalizeOrder, type OrderRow } from '../../../../db/repositories/clob-orders.repository.js';
import type { OrderOutcome, SystemCancelReason } from '../../../domain/orderbook/index.js';
import type { StoredFill } from '../matcher/placement-writer.js';

const NO_FILLS_WAITING: OrderFillTally = { unsettled: 0, failedQuantity: 0n };

/** Reasons the service itself cancelled for: they say more than `fill_failed` and are kept. */
const SERVICE_REASONS: ReadonlySet<string> = new Set<SystemCancelReason>([
  'insufficient_balance',
  'invalid_signature',
  'operator',
  'heartbeat_expired',
]);

export function presentOrder(row: OrderRow, fills: OrderFillTally = NO_FILLS_WAITING) {
  const o = normalizeOrder(row);
  const matched = o.quantity - o.remaining - fills.failedQuantity;
  const filled = matched > 0n ? matched : 0n;
  let status: string = o.status;
  let cancelReason = o.cancel_reason;
  if (fills.failedQuantity > 0n) {
    if (o.status === 'open' || o.status === 'partially_filled') status = filled > 0n ? 'partially_filled' : 'open';
    else if (o.status === 'filled' || (filled === 0n && !SERVICE_REASONS.has(o.cancel_reason ?? '')))
      [status, cancelReason] = ['cancelled', 'fill_failed'];
  }
  if (status === 'filled' && fills.unsettled > 0) status = 'settling';
  return {
    id: o.id,
    marketId: o.market_id,
    ownerPubkey: o.owner,
    side: o.side,
    outcome: o.outcome,
    priceBps: o.price_bps,
    originalQuantity: o.quantity.toString(),
    remainingQuantity: o.remaining.toString(),
    filledQuantity: filled.toString(),
    committedAmount: o.committed.toString(),
    status,
    orderType: o.order_type,
    timeInForce: o.time_in_force,
    postOnly: o.post_only === 1,
    nonce: o.nonce,
    expiry: Number(o.expiry),
    cancelReason,
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
