/**
 * A matcher batch's writes in one PostgreSQL statement (clob-batch-writes.ts) leave exactly the
 * rows the four separate statements leave: two databases start alike, one is written each way
 * with the same rows (new orders, changed states of existing orders with a stored cancel reason
 * kept and one given, fills, holds added to existing and new hold rows, amounts beyond 2^53), and
 * every row of the three tables is compared. The largest batch one statement takes (64 orders,
 * 64 fills) too; and a part that fails (a used nonce) leaves nothing of the others.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { DatabaseHandle } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { fitsOneStatement, writeBatchRows, type BatchWriteRows } from '../../db/repositories/clob-batch-writes.js';
import { addOwnerHolds, mergedHoldRows } from '../../db/repositories/clob-commitments.repository.js';
import { insertMatchedFills, type MatchedFillInsert } from '../../db/repositories/clob-fill-inserts.js';
import { insertOrders, updateOrderStates } from '../../db/repositories/clob-orders.repository.js';
import { PG_AVAILABLE, postgresDatabase } from '../helpers/databases.js';

const NOW = '2026-11-26T00:00:00.000Z';
const LATER = '2026-11-26T00:00:01.000Z';
const BIG = 2n ** 62n + 7n;

function order(i: number, extra: Record<string, unknown> = {}) {
  return {
    id: `order-${i}`,
    market_id: `m${i % 2}`,
    owner: `owner-${i % 3}`,
    side: i % 2 === 0 ? ('buy' as const) : ('sell' as const),
    outcome: i % 4 < 2 ? ('yes' as const) : ('no' as const),
    price_bps: 1000 + i,
    quantity: BIG + BigInt(i),
    remaining: BIG - BigInt(i),
    status: 'open' as const,
    order_type: 'limit' as const,
    time_in_force: 'gtc' as const,
    post_only: i % 2,
    nonce: String(i),
    expiry: BigInt(1_900_000_000 + i),
    message: `msg-${i}`,
    signature: `sig-${i}`,
    seq: BigInt(i + 1),
    notional: BigInt(i) * 3n,
    usdc: BigInt(i) * 5n,
    committed: BigInt(i) * 7n,
    cancel_reason: i % 5 === 0 ? `reason-${i}` : null,
    created_at: NOW,
    updated_at: NOW,
    ...extra,
  };
}

function fill(i: number): MatchedFillInsert {
  return {
    id: randomUUID(),
    market_id: `m${i % 2}`,
    seq: BigInt(i + 1),
    maker_order_id: `order-${i}`,
    taker_order_id: `order-${i + 1000}`,
    maker_owner: `owner-${i % 3}`,
    taker_owner: `owner-${(i + 1) % 3}`,
    taker_side: i % 2 === 0 ? 'buy' : 'sell',
    outcome: i % 3 === 0 ? 'yes' : 'no',
    price_bps: 2000 + i,
    maker_side: i % 2 === 0 ? 'sell' : 'buy',
    maker_outcome: i % 3 === 0 ? 'no' : 'yes',
    maker_price_bps: 3000 + i,
    fill_type: i % 2 === 0 ? 'direct' : 'complementary',
    quantity: BIG + BigInt(i),
    usdc_amount: BigInt(i) + 11n,
    maker_usdc: BigInt(i) + 12n,
    taker_fee: BigInt(i) + 13n,
    maker_rebate: BigInt(i) + 14n,
    protocol_fee: BigInt(i) + 15n,
    rounding_dust: BigInt(i) + 16n,
    status: 'matched',
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

/** Existing orders 0..9 and holds of owner-0 in m0, then a batch's rows. */
async function seed(db: Kysely<Database>): Promise<void> {
  await insertOrders(
    db,
    Array.from({ length: 10 }, (_, i) => order(i)),
  );
  await addOwnerHolds(db, [{ owner: 'owner-0', marketId: 'm0', usdc: 100n, yes: 200n, no: 5n }], 1n);
}

function batch(orders: number, fills: number): BatchWriteRows {
  const holds = Array.from({ length: fills }, (_, i) => ({
    owner: `owner-${i % 3}`,
    marketId: `m${i % 2}`,
    usdc: BigInt(i) + 1n,
    yes: BigInt(i) * 2n,
    no: i === 0 ? BIG : BigInt(i),
  }));
  return {
    orders: Array.from({ length: orders }, (_, i) => order(1000 + i, { status: 'partially_filled', created_at: LATER, updated_at: LATER })),
    states: [
      { id: 'order-0', remaining: 0n, notional: BIG, usdc: BIG - 1n, committed: 0n, status: 'filled' },
      { id: 'order-1', remaining: 5n, notional: 1n, usdc: 2n, committed: 3n, status: 'partially_filled' },
      { id: 'order-5', remaining: 9n, notional: 0n, usdc: 0n, committed: 0n, status: 'cancelled' }, // its stored reason kept
      { id: 'order-6', remaining: 9n, notional: 0n, usdc: 0n, committed: 0n, status: 'cancelled', cancelReason: 'self_trade' },
    ],
    fills: Array.from({ length: fills }, (_, i) => fill(i)),
    holds: mergedHoldRows(holds, 1n),
  };
}

async function tables(db: Kysely<Database>) {
  return {
    orders: await db.selectFrom('clob_orders').selectAll().orderBy('id').execute(),
    fills: await db.selectFrom('clob_fills').selectAll().orderBy('id').execute(),
    holds: await db.selectFrom('clob_owner_holds').selectAll().orderBy('owner').orderBy('market_id').execute(),
  };
}

async function bothWays(rows: BatchWriteRows) {
  const one: DatabaseHandle = await postgresDatabase();
  const four: DatabaseHandle = await postgresDatabase();
  try {
    await seed(one.db);
    await seed(four.db);
    expect(fitsOneStatement(rows)).toBe(true);
    await one.db.transaction().execute((trx) => writeBatchRows(trx, LATER, rows));
    await four.db.transaction().execute(async (trx) => {
      await insertOrders(trx, rows.orders);
      await updateOrderStates(trx, rows.states, LATER);
      await insertMatchedFills(trx, rows.fills);
      await addOwnerHolds(trx, rows.holds, 1n);
    });
    return { one: await tables(one.db), four: await tables(four.db) };
  } finally {
    await one.close();
    await four.close();
  }
}

describe.skipIf(!PG_AVAILABLE)("a matcher batch's writes in one PostgreSQL statement", () => {
  it('leaves the rows the four statements leave', async () => {
    const rows = batch(3, 5);
    const { one, four } = await bothWays(rows);
    expect(one).toEqual(four);
    expect(one.orders).toHaveLength(13);
    expect(one.fills).toHaveLength(5);
    expect(one.orders.find((o) => o.id === 'order-5')).toMatchObject({ status: 'cancelled', cancel_reason: 'reason-5', updated_at: LATER });
    expect(one.orders.find((o) => o.id === 'order-0')).toMatchObject({ status: 'filled', notional: BIG, usdc: BIG - 1n });
    expect(one.holds.find((h) => h.owner === 'owner-0' && h.market_id === 'm0')).toMatchObject({ usdc: 101n, no_tokens: 5n + BIG });
  });

  it('writes a batch of a shape written before (its text kept) with its own values', async () => {
    await bothWays(batch(3, 5)); // the text for this shape is built and kept
    const again = batch(3, 5);
    const rows = { ...again, orders: again.orders.map((o) => ({ ...o, price_bps: o.price_bps + 7, nonce: `${o.nonce}-again` })) };
    const { one, four } = await bothWays(rows);
    expect(one).toEqual(four);
    expect(one.orders.find((o) => o.id === 'order-1000')).toMatchObject({ price_bps: 2007, nonce: '1000-again' });
  });

  it('takes the largest batch one statement holds', async () => {
    const rows = batch(64, 64);
    expect(fitsOneStatement(batch(65, 1))).toBe(false);
    const { one, four } = await bothWays(rows);
    expect(one).toEqual(four);
    expect(one.fills).toHaveLength(64);
  });

  it('writes nothing of the batch when one part fails', async () => {
    const db = await postgresDatabase();
    try {
      await seed(db.db);
      const rows = batch(2, 2);
      const used = { ...rows, orders: [...rows.orders, order(2000, { owner: 'owner-0', nonce: '0' })] }; // order-0's owner and nonce
      await expect(db.db.transaction().execute((trx) => writeBatchRows(trx, LATER, used))).rejects.toThrow();
      const after = await tables(db.db);
      expect(after.orders).toHaveLength(10);
      expect(after.fills).toHaveLength(0);
      expect(after.holds).toHaveLength(1);
      expect(after.orders.find((o) => o.id === 'order-0')).toMatchObject({ status: 'open' });
    } finally {
      await db.close();
    }
  });
});
