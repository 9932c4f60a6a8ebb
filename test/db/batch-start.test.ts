/**
 * The matcher's batch-start reads in one statement (`batchStartRows`): used nonces of exactly the
 * pairs asked, resting sums and counts, fill holds and smart-wallet balances, amounts beyond a
 * double's exact range kept exact, on both dialects; and with any of the branches absent (a batch
 * of give-backs names owners but places no order).
 */
import { describe, expect, it } from 'vitest';
import { batchStartRows } from '../../db/repositories/clob-batch.repository.js';
import { addOwnerHolds } from '../../db/repositories/clob-commitments.repository.js';
import { insertOrders } from '../../db/repositories/clob-orders.repository.js';
import { DIALECTS } from '../helpers/databases.js';

const NOW = '2026-11-24T00:00:00.000Z';
const BIG = 2n ** 62n + 7n;

function order(id: string, owner: string, nonce: string, status: 'open' | 'filled', side: 'buy' | 'sell', committed: bigint) {
  return {
    ...{ id, market_id: 'm1', owner, side, outcome: 'yes' as const, price_bps: 5000, quantity: 100n, remaining: 100n, status },
    ...{ order_type: 'limit' as const, time_in_force: 'gtc' as const, post_only: 0, nonce, expiry: 0n, message: '', signature: '' },
    ...{ seq: 1n, notional: 0n, usdc: 0n, committed, cancel_reason: null, created_at: NOW, updated_at: NOW },
  };
}

describe.each(DIALECTS)('batch start reads on $name', ({ available, open }) => {
  it.skipIf(!available)('reads nonces, resting sums, holds and balances in one statement, each branch optional', async () => {
    const db = await open();
    try {
      await insertOrders(db.db, [
        order('a1', 'alice', '1', 'open', 'buy', BIG),
        order('a2', 'alice', '2', 'open', 'buy', 5n),
        order('a3', 'alice', '3', 'filled', 'buy', 0n),
        order('b1', 'bob', '2', 'open', 'sell', 40n),
      ]);
      await addOwnerHolds(db.db, [{ owner: 'alice', marketId: 'm1', usdc: BIG, yes: 3n, no: 0n }], 1n);
      const slot = 1n;
      await db.db
        .insertInto('token_accounts')
        .values([
          { address: 't1', mint: 'usdc', owner: 'escrow-alice', amount: BIG, slot, updated_at: NOW },
          { address: 't2', mint: 'yes', owner: 'escrow-alice', amount: 9n, slot, updated_at: NOW },
          { address: 't3', mint: 'usdc', owner: 'escrow-carol', amount: 1n, slot, updated_at: NOW },
        ])
        .execute();

      const all = await batchStartRows(db.db, {
        pairs: [
          { owner: 'alice', nonce: '2' },
          { owner: 'bob', nonce: '1' }, // bob used 2, alice used 1: neither pair is used
          { owner: 'alice', nonce: '9' },
        ],
        owners: ['alice', 'bob'],
        escrows: ['escrow-alice'],
        mints: ['usdc'],
      });
      expect(all.nonces).toEqual(new Set(['alice|2']));
      expect(all.resting.sort((x, y) => x.owner.localeCompare(y.owner))).toEqual([
        { owner: 'alice', marketId: 'm1', side: 'buy', outcome: 'yes', committed: BIG + 5n, orders: 2 },
        { owner: 'bob', marketId: 'm1', side: 'sell', outcome: 'yes', committed: 40n, orders: 1 },
      ]);
      expect(all.holds).toEqual([{ owner: 'alice', marketId: 'm1', usdc: BIG, yes: 3n, no: 0n }]);
      expect(all.balances).toEqual([{ owner: 'escrow-alice', mint: 'usdc', amount: BIG }]);

      // No order placed (a give-back batch): the first branch is the resting sums.
      const noOrders = await batchStartRows(db.db, { pairs: [], owners: ['bob'], escrows: ['escrow-alice'], mints: ['yes'] });
      expect(noOrders.nonces.size).toBe(0);
      expect(noOrders.resting).toEqual([{ owner: 'bob', marketId: 'm1', side: 'sell', outcome: 'yes', committed: 40n, orders: 1 }]);
      expect(noOrders.holds).toEqual([]);
      expect(noOrders.balances).toEqual([{ owner: 'escrow-alice', mint: 'yes', amount: 9n }]);

      // Only balances asked.
      const onlyBalances = await batchStartRows(db.db, { pairs: [], owners: [], escrows: ['escrow-carol'], mints: ['usdc'] });
      expect(onlyBalances).toEqual({
        nonces: new Set(),
        resting: [],
        holds: [],
        balances: [{ owner: 'escrow-carol', mint: 'usdc', amount: 1n }],
      });
      expect(await batchStartRows(db.db, { pairs: [], owners: [], escrows: [], mints: ['usdc'] })).toEqual({
        nonces: new Set(),
        resting: [],
        holds: [],
        balances: [],
      });
    } finally {
      await db.close();
    }
  });
});
