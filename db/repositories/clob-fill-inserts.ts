/**
 * The matcher's new fills, in multi-row statements compiled once per database and row count
 * (db/precompiled.ts), as its new orders are (`insertOrders`, clob-orders.repository.ts): Kysely
 * built and compiled the 30-column insert afresh for every batch with fills (issue 31). Every
 * column is written but the three the matcher leaves to their defaults (migrations 0010, 0014).
 */
import type { CompiledQuery, Kysely, Transaction } from 'kysely';
import { precompiledRows } from '../precompiled.js';
import type { Database } from '../schema.js';
import type { FillRow } from './clob-fills.repository.js';

type Db = Kysely<Database> | Transaction<Database>;

/** A fill as the matcher writes it: every column but the defaulted ones. */
export type MatchedFillInsert = Omit<FillRow, 'give_back' | 'give_back_order_id' | 'candle_state'>;

const insertFillRows = precompiledRows<MatchedFillInsert>({
  maxRows: 64,
  exact: true,
  build: (db, rows) => db.insertInto('clob_fills').values(rows),
  // Every value distinct across rows and columns, so each compiled parameter names its column.
  marker: (i) => {
    const n = 1_000 * i;
    const text = (column: string) => `${column}${i}`;
    return {
      id: text('id'),
      market_id: text('market'),
      seq: BigInt(n + 1),
      maker_order_id: text('maker'),
      taker_order_id: text('taker'),
      maker_owner: text('makerOwner'),
      taker_owner: text('takerOwner'),
      taker_side: text('takerSide') as 'buy',
      outcome: text('outcome') as 'yes',
      price_bps: n + 2,
      maker_side: text('makerSide') as 'buy',
      maker_outcome: text('makerOutcome') as 'yes',
      maker_price_bps: n + 3,
      fill_type: text('type') as 'direct',
      quantity: BigInt(n + 4),
      usdc_amount: BigInt(n + 5),
      maker_usdc: BigInt(n + 6),
      taker_fee: BigInt(n + 7),
      maker_rebate: BigInt(n + 8),
      protocol_fee: BigInt(n + 9),
      rounding_dust: BigInt(n + 10),
      status: text('status') as 'matched',
      retry_count: n + 11,
      failure_reason: text('failure'),
      batch_id: text('batch'),
      settle_tx: text('tx'),
      positions_applied: n + 12,
      matched_at: text('matched'),
      settled_at: text('settled'),
      updated_at: text('updated'),
    };
  },
  // In the order of the marker's keys, which Kysely's columns follow.
  write: (r, parameters) =>
    parameters.push(
      r.id,
      r.market_id,
      r.seq,
      r.maker_order_id,
      r.taker_order_id,
      r.maker_owner,
      r.taker_owner,
      r.taker_side,
      r.outcome,
      r.price_bps,
      r.maker_side,
      r.maker_outcome,
      r.maker_price_bps,
      r.fill_type,
      r.quantity,
      r.usdc_amount,
      r.maker_usdc,
      r.taker_fee,
      r.maker_rebate,
      r.protocol_fee,
      r.rounding_dust,
      r.status,
      r.retry_count,
      r.failure_reason,
      r.batch_id,
      r.settle_tx,
      r.positions_applied,
      r.matched_at,
      r.settled_at,
      r.updated_at,
    ),
});

/** The matcher's fills of one batch, at most 64 per statement. */
export async function insertMatchedFills(db: Db, rows: readonly MatchedFillInsert[]): Promise<void> {
  await insertFillRows(db, rows);
}

/** The insert of 1 to 64 of them as one compiled statement, to run inside another (clob-batch-writes.ts). */
export function matchedFillsStatement(db: Db, rows: readonly MatchedFillInsert[]): CompiledQuery {
  return insertFillRows.one(db, rows);
}
