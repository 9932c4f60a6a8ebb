/**
 * An owner's resting orders are read through the partial index of migration 0025: the coverage
 * check runs whenever an owner's wallet changes, synchronously on SQLite, and must cost the rows
 * it returns, not the owner's whole history. Checked on SQLite's own plan for the repository's
 * statements (PostgreSQL picks by its statistics; its (owner, status) index bounds the rows read
 * there either way), and the answer checked newest first among thousands of ended orders.
 */
import { describe, expect, it } from 'vitest';
import { CompiledQuery } from 'kysely';
import { ownersWithRestingOrders, restingOrdersNewestFirst } from '../../db/repositories/clob-commitments.repository.js';
import { insertOrders } from '../../db/repositories/clob-orders.repository.js';
import { sqliteDatabase } from '../helpers/databases.js';
import { StatementCapture } from '../helpers/statement-capture.js';

const order = (id: string, seq: number, status: 'open' | 'filled' | 'cancelled') => ({
  ...{
    id,
    market_id: 'm1',
    owner: 'alice',
    side: 'buy' as const,
    outcome: 'yes' as const,
    price_bps: 5000,
    quantity: 1n,
    remaining: 1n,
    status,
  },
  ...{
    order_type: 'limit' as const,
    time_in_force: 'gtc' as const,
    post_only: 0,
    nonce: String(seq),
    expiry: 0n,
    message: '',
    signature: '',
  },
  ...{ seq: BigInt(seq), notional: 0n, usdc: 0n, committed: BigInt(seq), cancel_reason: null },
  ...{ created_at: new Date(Date.UTC(2026, 10, 1) + seq * 1000).toISOString(), updated_at: '2026-11-26T00:00:00.000Z' },
});

/** Records the operation nodes of the statements run through it. */

describe('an owner resting orders on SQLite', () => {
  it('reads only resting orders, the coverage check in index order, newest first', async () => {
    const handle = await sqliteDatabase();
    try {
      const ended = Array.from({ length: 2_000 }, (_, i) => order(`e${i}`, i, i % 2 ? 'filled' : 'cancelled'));
      await insertOrders(handle.db, [...ended, order('r1', 5_000, 'open'), order('r2', 5_001, 'open')]);
      const capture = new StatementCapture();
      const db = handle.db.withPlugin(capture);
      expect((await restingOrdersNewestFirst(db, 'alice')).map((r) => r.id)).toEqual(['r2', 'r1']);
      expect(await ownersWithRestingOrders(db, '', 10)).toEqual(['alice']);
      for (const node of capture.nodes) {
        const compiled = handle.db.getExecutor().compileQuery(node, { queryId: 'plan' });
        const plan = await handle.db.executeQuery(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
        const details = plan.rows.map((r) => (r as { detail: string }).detail).join('; ');
        // Never the owner's whole history (a scan, or the (owner, created_at) index) ...
        expect(details, compiled.sql).not.toMatch(/SCAN clob_orders|clob_orders_owner_idx /);
        // ... and the coverage check's list straight from the resting orders' index, in its order.
        if (compiled.sql.includes('"committed"')) {
          expect(details, compiled.sql).toContain('clob_orders_resting_owner_idx');
          expect(details, compiled.sql).not.toContain('TEMP B-TREE');
        }
      }
    } finally {
      await handle.close();
    }
  });
});
