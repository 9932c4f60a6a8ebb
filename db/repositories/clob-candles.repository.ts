/**
 * Price candles (migration 0014) and the fills' `candle_state` (one query per function). Prices
 * are YES bps; the candles job (candles.service.ts) is the only writer besides a rebuild.
 */
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { big, num } from '../codec.js';
import type { ClobPriceCandlesTable, Database } from '../schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** A candle's values (the domain's Candle, src/domain/orderbook/candles.ts, has this shape). */
export interface Candle {
  start: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: bigint;
  openSeq: bigint;
  closeSeq: bigint;
  fills: number;
}

/** Counted (1), left out (2), not seen yet (0). */
export const CANDLE_COUNTED = 1;
export const CANDLE_LEFT_OUT = 2;

/**
 * The fills whose candle_state disagrees with their status: written exactly as the predicate of
 * 0014's partial index, so that both SQLite and PostgreSQL answer from that index.
 */
const NEEDS_WORK = sql<boolean>`(candle_state = 0
    or (candle_state = 1 and status in ('failed', 'failed_insufficient_balance'))
    or (candle_state = 2 and status not in ('failed', 'failed_insufficient_balance')))`;

const FILL_COLUMNS = ['id', 'market_id', 'seq', 'outcome', 'price_bps', 'quantity', 'matched_at', 'status', 'candle_state'] as const;

export async function fillsNeedingCandles(db: Db, limit: number) {
  return db.selectFrom('clob_fills').select(FILL_COLUMNS).where(NEEDS_WORK).orderBy('market_id').orderBy('seq').limit(limit).execute();
}

/** Moves fills from one candle state to another; returns how many moved (fewer: another run took some). */
export async function setCandleState(db: Db, ids: string[], from: number, to: number): Promise<number> {
  if (ids.length === 0) return 0;
  const res = await db
    .updateTable('clob_fills')
    .set({ candle_state: to })
    .where('id', 'in', ids)
    .where('candle_state', '=', from)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Counted fills of a market with seq in [fromSeq, toSeq], by the (market_id, seq) key. */
export async function countedFillsBetween(db: Db, marketId: string, fromSeq: bigint, toSeq: bigint) {
  return db
    .selectFrom('clob_fills')
    .select(FILL_COLUMNS)
    .where('market_id', '=', marketId)
    .where('seq', '>=', fromSeq)
    .where('seq', '<=', toSeq)
    .where('candle_state', '=', CANDLE_COUNTED)
    .orderBy('seq')
    .execute();
}

/** A page of a market's fills after `afterSeq` (a rebuild reads them all, in seq order). */
export async function marketFillsAfter(db: Db, marketId: string, afterSeq: bigint, limit: number) {
  return db
    .selectFrom('clob_fills')
    .select(FILL_COLUMNS)
    .where('market_id', '=', marketId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/** A rebuild's state of every fill of a market: counted unless failed. */
export async function resetMarketCandleStates(db: Db, marketId: string): Promise<void> {
  await db
    .updateTable('clob_fills')
    .set({
      candle_state: sql<number>`case when status in ('failed', 'failed_insufficient_balance') then ${sql.lit(CANDLE_LEFT_OUT)} else ${sql.lit(CANDLE_COUNTED)} end`,
    })
    .where('market_id', '=', marketId)
    .execute();
}

function row(marketId: string, seconds: number, c: Candle) {
  return {
    market_id: marketId,
    interval_seconds: seconds,
    start_unix: c.start,
    open_bps: c.open,
    high_bps: c.high,
    low_bps: c.low,
    close_bps: c.close,
    volume: c.volume,
    open_seq: c.openSeq,
    close_seq: c.closeSeq,
    fills: c.fills,
  };
}

export function toCandle(r: Selectable<ClobPriceCandlesTable>): Candle {
  return {
    start: num(r.start_unix),
    open: num(r.open_bps),
    high: num(r.high_bps),
    low: num(r.low_bps),
    close: num(r.close_bps),
    volume: big(r.volume),
    openSeq: big(r.open_seq),
    closeSeq: big(r.close_seq),
    fills: num(r.fills),
  };
}

/**
 * Merges a partial candle into its row in one statement (mergeCandles in SQL), so two writers
 * adding to one candle never lose each other's fills on PostgreSQL (the conflict locks the row).
 */
export async function mergeCandle(db: Db, marketId: string, seconds: number, c: Candle): Promise<void> {
  const t = 'clob_price_candles';
  await db
    .insertInto(t)
    .values(row(marketId, seconds, c))
    .onConflict((oc) =>
      oc.columns(['market_id', 'interval_seconds', 'start_unix']).doUpdateSet({
        open_bps: sql`case when excluded.open_seq < ${sql.ref(`${t}.open_seq`)} then excluded.open_bps else ${sql.ref(`${t}.open_bps`)} end`,
        open_seq: sql`case when excluded.open_seq < ${sql.ref(`${t}.open_seq`)} then excluded.open_seq else ${sql.ref(`${t}.open_seq`)} end`,
        close_bps: sql`case when excluded.close_seq > ${sql.ref(`${t}.close_seq`)} then excluded.close_bps else ${sql.ref(`${t}.close_bps`)} end`,
        close_seq: sql`case when excluded.close_seq > ${sql.ref(`${t}.close_seq`)} then excluded.close_seq else ${sql.ref(`${t}.close_seq`)} end`,
        high_bps: sql`case when excluded.high_bps > ${sql.ref(`${t}.high_bps`)} then excluded.high_bps else ${sql.ref(`${t}.high_bps`)} end`,
        low_bps: sql`case when excluded.low_bps < ${sql.ref(`${t}.low_bps`)} then excluded.low_bps else ${sql.ref(`${t}.low_bps`)} end`,
        volume: sql`${sql.ref(`${t}.volume`)} + excluded.volume`,
        fills: sql`${sql.ref(`${t}.fills`)} + excluded.fills`,
      }),
    )
    .execute();
}

/** Locks a candle's row until commit (PostgreSQL; SQLite serialises writers already) before it is recomputed. */
export async function lockCandle(db: Db, marketId: string, seconds: number, start: number): Promise<void> {
  await db
    .updateTable('clob_price_candles')
    .set({ fills: sql`fills` })
    .where('market_id', '=', marketId)
    .where('interval_seconds', '=', seconds)
    .where('start_unix', '=', BigInt(start))
    .execute();
}

export async function findCandle(db: Db, marketId: string, seconds: number, start: number) {
  return db
    .selectFrom('clob_price_candles')
    .selectAll()
    .where('market_id', '=', marketId)
    .where('interval_seconds', '=', seconds)
    .where('start_unix', '=', BigInt(start))
    .executeTakeFirst();
}

/** A market's candles of one interval with start in [from, to], oldest first, at most `limit`. */
export async function candlesBetween(db: Db, marketId: string, seconds: number, from: number, to: number, limit: number) {
  return db
    .selectFrom('clob_price_candles')
    .selectAll()
    .where('market_id', '=', marketId)
    .where('interval_seconds', '=', seconds)
    .where('start_unix', '>=', BigInt(from))
    .where('start_unix', '<=', BigInt(to))
    .orderBy('start_unix')
    .limit(limit)
    .execute();
}

/** Writes a recomputed candle over its row. */
export async function replaceCandle(db: Db, marketId: string, seconds: number, c: Candle): Promise<void> {
  await db
    .insertInto('clob_price_candles')
    .values(row(marketId, seconds, c))
    .onConflict((oc) =>
      oc.columns(['market_id', 'interval_seconds', 'start_unix']).doUpdateSet((eb) => ({
        open_bps: eb.ref('excluded.open_bps'),
        high_bps: eb.ref('excluded.high_bps'),
        low_bps: eb.ref('excluded.low_bps'),
        close_bps: eb.ref('excluded.close_bps'),
        volume: eb.ref('excluded.volume'),
        open_seq: eb.ref('excluded.open_seq'),
        close_seq: eb.ref('excluded.close_seq'),
        fills: eb.ref('excluded.fills'),
      })),
    )
    .execute();
}

export async function deleteCandle(db: Db, marketId: string, seconds: number, start: number): Promise<void> {
  await db
    .deleteFrom('clob_price_candles')
    .where('market_id', '=', marketId)
    .where('interval_seconds', '=', seconds)
    .where('start_unix', '=', BigInt(start))
    .execute();
}

export async function deleteMarketCandles(db: Db, marketId: string): Promise<void> {
  await db.deleteFrom('clob_price_candles').where('market_id', '=', marketId).execute();
}

export async function insertCandles(db: Db, marketId: string, seconds: number, candles: Candle[]): Promise<void> {
  for (let i = 0; i < candles.length; i += 500)
    await db
      .insertInto('clob_price_candles')
      .values(candles.slice(i, i + 500).map((c) => row(marketId, seconds, c)))
      .execute();
}

/** Every candle of a market, in key order (tests compare a rebuild with the table). */
export async function allMarketCandles(db: Db, marketId: string) {
  return db
    .selectFrom('clob_price_candles')
    .selectAll()
    .where('market_id', '=', marketId)
    .orderBy('interval_seconds')
    .orderBy('start_unix')
    .execute();
}
