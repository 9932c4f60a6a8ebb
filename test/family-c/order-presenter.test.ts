/**
 * How an order reads once some of its fills failed (order.presenter.ts), case by case: what the
 * book stored, what its fills say (fillTallyByOrder), what the trader reads. Quantities in raw
 * units of a 10-token order.
 */
import { describe, expect, it } from 'vitest';
import type { OrderRow } from '../../db/repositories/clob-orders.repository.js';
import { presentOrder } from '../../src/services/family-c/orders/order.presenter.js';

const NOW = '2026-11-26T00:00:00.000Z';

function stored(status: OrderRow['status'], remaining: bigint, cancelReason: string | null = null): OrderRow {
  return {
    id: 'o1',
    market_id: 'm1',
    owner: 'w1',
    side: 'buy',
    outcome: 'yes',
    price_bps: 5000,
    quantity: 10_000_000n,
    remaining,
    status,
    order_type: 'limit',
    time_in_force: 'gtc',
    post_only: 0,
    nonce: '1',
    expiry: 0n,
    message: '',
    signature: '',
    seq: 1n,
    notional: 0n,
    usdc: 0n,
    committed: 0n,
    cancel_reason: cancelReason,
    created_at: NOW,
    updated_at: NOW,
  } as OrderRow;
}

const read = (row: OrderRow, unsettled: number, failedQuantity: bigint) => {
  const o = presentOrder(row, { unsettled, failedQuantity });
  return { status: o.status, filledQuantity: o.filledQuantity, cancelReason: o.cancelReason };
};

describe('what an order reads once fills fail', () => {
  it("filled, its only fill failed: cancelled / fill_failed, nothing filled (the issue's case)", () => {
    expect(read(stored('filled', 0n), 0, 10_000_000n)).toEqual({ status: 'cancelled', filledQuantity: '0', cancelReason: 'fill_failed' });
  });

  it('filled, 4 of its 10 failed: the 6 that stand, cancelled / fill_failed (the book is done with it)', () => {
    expect(read(stored('filled', 0n), 0, 4_000_000n)).toEqual({
      status: 'cancelled',
      filledQuantity: '6000000',
      cancelReason: 'fill_failed',
    });
    // … and while the 6 are still on their way, the same: it never reads settling then filled.
    expect(read(stored('filled', 0n), 1, 4_000_000n)).toEqual({
      status: 'cancelled',
      filledQuantity: '6000000',
      cancelReason: 'fill_failed',
    });
  });

  it('cancelled after fills that all failed: fill_failed; after fills of which one stands: its own reason', () => {
    expect(read(stored('cancelled', 7_000_000n, 'ioc_remainder'), 0, 3_000_000n)).toEqual({
      status: 'cancelled',
      filledQuantity: '0',
      cancelReason: 'fill_failed',
    });
    expect(read(stored('cancelled', 7_000_000n, 'user'), 0, 1_000_000n)).toEqual({
      status: 'cancelled',
      filledQuantity: '2000000',
      cancelReason: 'user',
    });
  });

  it('cancelled by the service for its own reason (invalid_signature, insufficient_balance): that reason is kept', () => {
    expect(read(stored('cancelled', 5_000_000n, 'invalid_signature'), 0, 5_000_000n)).toEqual({
      status: 'cancelled',
      filledQuantity: '0',
      cancelReason: 'invalid_signature',
    });
    expect(read(stored('cancelled', 5_000_000n, 'insufficient_balance'), 0, 5_000_000n)).toEqual({
      status: 'cancelled',
      filledQuantity: '0',
      cancelReason: 'insufficient_balance',
    });
  });

  it('resting: a failed fill waiting for its give-back reads open; once given back it no longer counts', () => {
    // 4 matched, failed, give-back pending: remaining still 6.
    expect(read(stored('partially_filled', 6_000_000n), 0, 4_000_000n)).toEqual({
      status: 'open',
      filledQuantity: '0',
      cancelReason: null,
    });
    // Given back: remaining 10 again, the fill no longer counts against this order (failedQuantity 0).
    expect(read(stored('open', 10_000_000n), 0, 0n)).toEqual({ status: 'open', filledQuantity: '0', cancelReason: null });
    // 2 stand, 4 failed: partially filled by 2.
    expect(read(stored('partially_filled', 4_000_000n), 0, 4_000_000n)).toEqual({
      status: 'partially_filled',
      filledQuantity: '2000000',
      cancelReason: null,
    });
  });

  it('without failures nothing changes: filled reads settling while fills are on their way', () => {
    expect(read(stored('filled', 0n), 2, 0n)).toEqual({ status: 'settling', filledQuantity: '10000000', cancelReason: null });
    expect(read(stored('filled', 0n), 0, 0n)).toEqual({ status: 'filled', filledQuantity: '10000000', cancelReason: null });
  });
});
