/**
 * Orders by result for the metrics (`pmx_clob_orders_total{result,reason}`): placed, or rejected
 * with the class of its refusal. The classes are a closed list so the label set stays bounded
 * whatever codes the services add: an unknown domain code counts by its kind, anything else as
 * `error` (a bug, answered 500).
 */
import { isDomainError } from '../../../domain/errors.js';
import type { ClobMetrics } from '../../../infra/clob-metrics.js';

const REASON_OF_CODE: Record<string, string> = {
  INVALID_ORDER: 'invalid',
  DUPLICATE_ORDER: 'invalid',
  ORDER_EXPIRED: 'expired',
  INVALID_SIGNATURE: 'signature',
  MARKET_NOT_FOUND: 'market',
  MARKET_NOT_ACTIVE: 'market',
  INSUFFICIENT_BALANCE: 'funds',
  DUPLICATE_NONCE: 'nonce',
  TOO_MANY_ORDERS: 'limits',
  WOULD_TAKE: 'post_only',
};

const REASON_OF_KIND: Record<string, string> = {
  unavailable: 'unavailable',
  rate_limited: 'rate_limited',
  not_found: 'not_found',
  forbidden: 'forbidden',
  conflict: 'conflict',
};

export function orderRejectReason(error: unknown): string {
  if (!isDomainError(error)) return 'error';
  return REASON_OF_CODE[error.code] ?? REASON_OF_KIND[error.kind] ?? 'other';
}

/** Runs a placement and counts its result. */
export async function countedPlacement<T>(metrics: Pick<ClobMetrics, 'orders'>, place: () => Promise<T>): Promise<T> {
  try {
    const placed = await place();
    metrics.orders.inc({ result: 'placed', reason: '' });
    return placed;
  } catch (error) {
    metrics.orders.inc({ result: 'rejected', reason: orderRejectReason(error) });
    throw error;
  }
}
