/**
 * The matcher writes the resting orders a batch changed in one `UPDATE … FROM (VALUES …)`
 * statement: every changed order gets its own values (large amounts exact), a cancel reason only
 * where one is given, and orders outside the list stay as they were — on both dialects.
 */
import { describe, expect, it } from 'vitest';
import { findOrder, insertOrders, updateOrderStates } from '../../db/repositories/clob-orders.repository.js';
import { DIALECTS } from '../helpers/databases.js';

const NOW = '2026-11-24T00:00:00.000Z';
const LATER = '2026-11-24T00:00:01.000Z';

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

describe.each(DIALECTS)('order states on $name', ({ available, open }) => {
  it.skipIf(!available)('updates many orders in one statement and leaves the others alone', async () => {
    const db = await open();
    try {
      const ids = Array.from({ length: 601 }, (_, i) => `order-${i}`); // more than one 500-row statement
      await insertOrders(
        db.db,
        ids.map((id, i) => order(id, String(i))),
      );
      await db.db.updateTable('clob_orders').set({ cancel_reason: 'kept' }).where('id', '=', 'order-3').execute(); // a stored reason the update must keep
      const big = 2n ** 62n + 7n; // beyond a double's exact range
      await updateOrderStates(
        db.db,
        [
          { id: 'order-0', remaining: 40n, notional: 300_000n, usdc: 30n, committed: 20n, status: 'partially_filled' },
          { id: 'order-1', remaining: 0n, notional: big, usdc: big - 1n, committed: 0n, status: 'filled' },
          { id: 'order-2', remaining: 100n, notional: 0n, usdc: 0n, committed: 0n, status: 'cancelled', cancelReason: 'self_trade' },
          ...ids
            .slice(3, 600)
            .map((id) => ({ id, remaining: 1n, notional: 0n, usdc: 0n, committed: 1n, status: 'partially_filled' as const })),
        ],
        LATER,
      );

      expect(await findOrder(db.db, 'order-0')).toMatchObject({
        remaining: 40n,
        notional: 300_000n,
        usdc: 30n,
        committed: 20n,
        status: 'partially_filled',
        cancel_reason: null,
        updated_at: LATER,
      });
      expect(await findOrder(db.db, 'order-1')).toMatchObject({
        remaining: 0n,
        notional: big,
        usdc: big - 1n,
        status: 'filled',
        cancel_reason: null,
      });
      expect(await findOrder(db.db, 'order-2')).toMatchObject({ status: 'cancelled', cancel_reason: 'self_trade', committed: 0n });
      expect(await findOrder(db.db, 'order-3')).toMatchObject({ remaining: 1n, status: 'partially_filled', cancel_reason: 'kept' });
      expect(await findOrder(db.db, 'order-599')).toMatchObject({
        remaining: 1n,
        committed: 1n,
        status: 'partially_filled',
        updated_at: LATER,
      });
      expect(await findOrder(db.db, 'order-600')).toMatchObject({ remaining: 100n, committed: 50n, status: 'open', updated_at: NOW });

      await updateOrderStates(db.db, [], LATER); // nothing to write: no statement
    } finally {
      await db.close();
    }
  });
});
