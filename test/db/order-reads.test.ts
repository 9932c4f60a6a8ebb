/**
 * The reads behind the orders and fills a matcher batch presents (orders/batch-views.ts), on both
 * dialects: orders by id, and each order's unsettled fills and failed quantity, counted by the order-id
 * indexes (maker and taker roles both) whatever else the table holds.
 */
import { describe, expect, it } from 'vitest';
import { fillTallyByOrder, insertFills, markGiveBacks } from '../../db/repositories/clob-fills.repository.js';
import { insertOrders, ordersByIds, ordersWithFillTallies } from '../../db/repositories/clob-orders.repository.js';
import type { ClobFillStatus } from '../../db/schema.js';
import { DIALECTS } from '../helpers/databases.js';

const NOW = '2026-11-24T00:00:00.000Z';

function order(id: string, nonce: string) {
  return {
    id,
    market_id: 'm1',
    owner: 'o1',
    side: 'buy' as const,
    outcome: 'yes' as const,
    price_bps: 5000,
    quantity: 100n,
    remaining: 100n,
    status: 'open' as const,
    order_type: 'limit' as const,
    time_in_force: 'gtc' as const,
    post_only: 0,
    nonce,
    expiry: 0n,
    message: '',
    signature: '',
    seq: 1n,
    notional: 0n,
    usdc: 0n,
    committed: 50n,
    cancel_reason: null,
    created_at: NOW,
    updated_at: NOW,
  };
}

function fill(
  id: string,
  seq: number,
  maker: string,
  taker: string,
  status: ClobFillStatus,
  quantity = 1n,
  restoredTo: string | null = null,
) {
  return {
    give_back: restoredTo ? ('restored' as const) : null,
    give_back_order_id: restoredTo,
    id,
    market_id: 'm1',
    seq: BigInt(seq),
    maker_order_id: maker,
    taker_order_id: taker,
    maker_owner: 'a',
    taker_owner: 'b',
    taker_side: 'buy' as const,
    outcome: 'yes' as const,
    price_bps: 5000,
    maker_side: 'sell' as const,
    maker_outcome: 'yes' as const,
    maker_price_bps: 5000,
    fill_type: 'direct' as const,
    quantity,
    usdc_amount: 1n,
    maker_usdc: 1n,
    taker_fee: 0n,
    maker_rebate: 0n,
    protocol_fee: 0n,
    rounding_dust: 0n,
    status,
    retry_count: 0,
    failure_reason: null,
    batch_id: null,
    settle_tx: null,
    positions_applied: 0,
    matched_at: NOW,
    settled_at: null,
    updated_at: NOW,
  };
}

describe.each(DIALECTS)('order reads on $name', ({ available, open }) => {
  it.skipIf(!available)('reads orders by id and counts each order’s unsettled fills in both roles', async () => {
    const db = await open();
    try {
      await insertOrders(
        db.db,
        ['a', 'b', 'c', 'd'].map((id, i) => order(id, String(i))),
      );
      await insertFills(db.db, [
        fill('f1', 1, 'a', 'b', 'matched'),
        fill('f2', 2, 'a', 'c', 'settling'),
        fill('f3', 3, 'c', 'a', 'retrying'),
        fill('f4', 4, 'a', 'b', 'settled'), // settled and failed fills do not count
        fill('f5', 5, 'b', 'a', 'failed', 7n),
        fill('f6', 6, 'd', 'c', 'failed_insufficient_balance', 11n, 'c'), // given back to c: counts against d only
        ...Array.from({ length: 50 }, (_, i) => fill(`other-${i}`, 10 + i, `x${i}`, `y${i}`, 'matched')),
      ]);
      expect((await ordersByIds(db.db, ['a', 'c', 'missing'])).map((r) => r.id).sort()).toEqual(['a', 'c']);
      expect(await ordersByIds(db.db, [])).toEqual([]);
      // Unsettled — a: maker of f1, f2 and taker of f3 → 3; b: taker of f1 → 1; c: taker of f2, maker of f3 → 2; d: 0.
      // Failed quantity — a and b: f5 (7) in either role; c: f6 was given back to c → 0; d: f6 (11).
      expect(await fillTallyByOrder(db.db, ['a', 'b', 'c', 'd'])).toEqual(
        new Map([
          ['a', { unsettled: 3, failedQuantity: 7n }],
          ['b', { unsettled: 1, failedQuantity: 7n }],
          ['c', { unsettled: 2, failedQuantity: 0n }],
          ['d', { unsettled: 0, failedQuantity: 11n }],
        ]),
      );
      expect(await fillTallyByOrder(db.db, [])).toEqual(new Map());
      // The same tallies read with their orders in one statement; e (no fill) has none, a missing id no row.
      await insertOrders(db.db, [order('e', '4')]);
      const both = await ordersWithFillTallies(db.db, ['a', 'b', 'c', 'd', 'e', 'missing']);
      const rows = new Map((await ordersByIds(db.db, ['a', 'b', 'c', 'd', 'e'])).map((r) => [r.id, r]));
      expect(new Map(both.map(({ row, tally }) => [row.id, { row, tally }]))).toEqual(
        new Map(
          [
            ['a', { unsettled: 3, failedQuantity: 7n }],
            ['b', { unsettled: 1, failedQuantity: 7n }],
            ['c', { unsettled: 2, failedQuantity: 0n }],
            ['d', { unsettled: 0, failedQuantity: 11n }],
            ['e', undefined],
          ].map(([id, tally]) => [id, { row: rows.get(id as string), tally }]),
        ),
      );
      expect(await ordersWithFillTallies(db.db, [])).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it.skipIf(!available)('marks give-backs: pending while the order rests, else not_resting, once', async () => {
    const db = await open();
    try {
      await insertOrders(db.db, [
        order('open', '0'),
        { ...order('partial', '1'), status: 'partially_filled' },
        { ...order('filled', '2'), status: 'filled' },
        { ...order('cancelled', '3'), status: 'cancelled' },
      ]);
      await insertFills(db.db, [
        fill('g1', 1, 'x', 'y', 'failed_insufficient_balance'),
        fill('g2', 2, 'x', 'y', 'failed_insufficient_balance'),
        fill('g3', 3, 'x', 'y', 'failed_insufficient_balance'),
        fill('g4', 4, 'x', 'y', 'failed_insufficient_balance'),
        fill('g5', 5, 'x', 'y', 'failed_insufficient_balance'),
        fill('g6', 6, 'x', 'y', 'failed_insufficient_balance', 1n, 'open'), // already given back: left alone
        fill('g7', 7, 'x', 'y', 'failed_insufficient_balance'), // not marked: left alone
      ]);
      await markGiveBacks(db.db, [
        { fillId: 'g1', orderId: 'open' },
        { fillId: 'g2', orderId: 'partial' },
        { fillId: 'g3', orderId: 'filled' },
        { fillId: 'g4', orderId: 'cancelled' },
        { fillId: 'g5', orderId: 'missing' },
        { fillId: 'g6', orderId: 'partial' },
      ]);
      await markGiveBacks(db.db, []);
      const marked = await db.db.selectFrom('clob_fills').select(['id', 'give_back', 'give_back_order_id']).orderBy('seq').execute();
      expect(marked.map((r) => [r.id, r.give_back, r.give_back_order_id])).toEqual([
        ['g1', 'pending', 'open'],
        ['g2', 'pending', 'partial'],
        ['g3', 'not_resting', 'filled'],
        ['g4', 'not_resting', 'cancelled'],
        ['g5', 'not_resting', 'missing'],
        ['g6', 'restored', 'open'],
        ['g7', null, null],
      ]);
    } finally {
      await db.close();
    }
  });
});
