/**
 * A history of the size where plans matter (placement-index-plans.test.ts): 200 owners, 8 markets,
 * 40,000 orders of which one in ten rests, 40,000 fills of which most are settled and applied, a
 * few hundred matched, in a batch, settled but not applied or failed. A planner that has a choice
 * between an index and a scan picks the index here only when the index is worth it.
 */
import type { Kysely } from 'kysely';
import { insertMatchedFills } from '../../db/repositories/clob-fill-inserts.js';
import { insertOrders } from '../../db/repositories/clob-orders.repository.js';
import type { ClobFillStatus, ClobOrdersTable, Database } from '../../db/schema.js';
import { fillRow } from '../helpers/fill-rows.js';

export const SEED = { owners: 200, markets: 8, orders: 40_000, fills: 40_000 };
export const owner = (i: number) => `owner-${i % SEED.owners}`;
export const market = (i: number) => `m${i % SEED.markets}`;
export const batchOf = (i: number) => `batch-${i % 50}`;
const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();

type OrderStatus = ClobOrdersTable['status'];

function orderStatus(i: number): OrderStatus {
  if (i % 10 === 0) return i % 20 === 0 ? 'open' : 'partially_filled';
  return i % 3 === 0 ? 'cancelled' : 'filled';
}

/** Most fills ended long ago; one in a hundred or so in each state still moving. */
function fillStatus(i: number): { status: ClobFillStatus; applied: number; batch: string | null } {
  const r = i % 200;
  if (r < 6) return { status: 'matched', applied: 0, batch: null };
  if (r < 9) return { status: 'settling', applied: 0, batch: batchOf(i) };
  if (r < 10) return { status: 'retrying', applied: 0, batch: batchOf(i) };
  if (r < 14) return { status: 'settled', applied: 0, batch: batchOf(i) };
  if (r < 16) return { status: 'failed', applied: 0, batch: null };
  return { status: 'settled', applied: 1, batch: batchOf(i) };
}

const orderRow = (i: number) => ({
  ...{ id: `order-${i}`, market_id: market(i), owner: owner(i), side: i % 2 ? ('sell' as const) : ('buy' as const) },
  ...{ outcome: 'yes' as const, price_bps: 5000, quantity: 10n, remaining: 5n, status: orderStatus(i), order_type: 'limit' as const },
  ...{
    time_in_force: 'gtc' as const,
    post_only: 0,
    nonce: String(i),
    expiry: BigInt(i % 7 ? 0 : 2_000_000_000),
    message: '',
    signature: '',
  },
  ...{ seq: BigInt(i), notional: 0n, usdc: 0n, committed: 5n, cancel_reason: null, created_at: at(i), updated_at: at(i) },
});

function fill(i: number) {
  const { status, applied, batch } = fillStatus(i);
  const {
    give_back: _g,
    give_back_order_id: _o,
    ...row
  } = fillRow(`fill-${i}`, Math.floor(i / SEED.markets), {
    market_id: market(i),
    maker_order_id: `order-${(i * 7) % SEED.orders}`,
    taker_order_id: `order-${(i * 13 + 1) % SEED.orders}`,
    maker_owner: owner(i * 7),
    taker_owner: owner(i * 13 + 1),
    status,
    positions_applied: applied,
    batch_id: batch,
    matched_at: at(i),
    settled_at: status === 'settled' ? at(i + 1) : null,
    updated_at: at(i),
  });
  return row;
}

/** Writes the history in one transaction; the candles job has counted every fill (as it would have). */
export async function seedHistory(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < SEED.orders; i += 64) {
      await insertOrders(
        trx,
        Array.from({ length: Math.min(64, SEED.orders - i) }, (_, k) => orderRow(i + k)),
      );
    }
    for (let i = 0; i < SEED.fills; i += 64) {
      await insertMatchedFills(
        trx,
        Array.from({ length: Math.min(64, SEED.fills - i) }, (_, k) => fill(i + k)),
      );
    }
    await trx.updateTable('clob_fills').set({ candle_state: 1 }).where('status', '!=', 'failed').execute();
    await trx.updateTable('clob_fills').set({ candle_state: 2 }).where('status', '=', 'failed').execute();
    const places = Array.from({ length: SEED.fills }, (_, i) => i)
      .filter((i) => fillStatus(i).batch !== null)
      .map((i) => ({ batch_id: batchOf(i), fill_id: `fill-${i}`, position: i }));
    for (let i = 0; i < places.length; i += 1000)
      await trx
        .insertInto('clob_batch_fills')
        .values(places.slice(i, i + 1000))
        .execute();
  });
}
