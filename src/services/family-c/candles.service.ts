/**
 * Keeps the price candles (domain/orderbook/candles.ts, table of migration 0014) equal to what
 * the market's fills make, fills that failed left out. Run by the `clob.candles.apply` job after
 * each matcher batch with fills and on a schedule (a fill's failure or re-drive is seen there).
 *
 * Each fill's `candle_state` says what the candles count of it; a run takes the fills whose state
 * disagrees with their status (0014's partial index: the work is the rows returned) and, in one
 * transaction, claims them and changes the candles:
 * - a fill to count is merged into its candle of every interval (one upsert each, which merges in
 *   SQL: two runs adding to one candle never lose a fill);
 * - a counted fill that failed is taken out by recomputing its minute from the counted fills
 *   between the candle's first and last seq, then each coarser candle from its finer ones (5 one-
 *   minute candles, 12 five-minute, 24 hourly): high and low cannot be taken back by arithmetic.
 * Candle rows are changed in a fixed order (interval, market, start) so two runs wait, not deadlock.
 * `rebuildCandles` recomputes a market's candles from its fills alone; a test holds it equal to
 * what the job kept.
 */
import {
  CANDLE_COUNTED,
  CANDLE_LEFT_OUT,
  candlesBetween,
  countedFillsBetween,
  deleteCandle,
  deleteMarketCandles,
  fillsNeedingCandles,
  findCandle,
  insertCandles,
  lockCandle,
  marketFillsAfter,
  mergeCandle,
  replaceCandle,
  resetMarketCandleStates,
  setCandleState,
  toCandle,
} from '../../../db/repositories/clob-candles.repository.js';
import { big, num } from '../../../db/codec.js';
import { rebuildableTransaction } from '../../../db/database.js';
import { lockFills } from '../../../db/row-locks.js';
import {
  bucketStart,
  fillCandle,
  foldCandles,
  INTERVAL_SECONDS,
  mergeCandles,
  type Candle,
  type CandleFill,
} from '../../domain/orderbook/index.js';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { FamilyCContext } from './context.js';

type Db = Kysely<Database> | Transaction<Database>;
type FillRow = Awaited<ReturnType<typeof fillsNeedingCandles>>[number];

const FAILED = new Set(['failed', 'failed_insufficient_balance']);
const MINUTE = INTERVAL_SECONDS[0];

class ClaimedElsewhere extends Error {}

function candleFill(r: FillRow): CandleFill {
  return {
    seq: big(r.seq),
    outcome: r.outcome,
    priceBps: num(r.price_bps),
    quantity: big(r.quantity),
    at: Math.floor(Date.parse(r.matched_at) / 1000),
  };
}

/** Brings the candles up to date with up to `limit` fills; returns how many it handled (0: nothing left, or another run has them). */
export async function applyCandleChanges(ctx: Pick<FamilyCContext, 'db'>, limit = 500): Promise<number> {
  try {
    // Candles and each fill's candle_state are derived from the fills and change together, so a
    // commit lost to a power cut only leaves those fills to count again: no fsync to wait for.
    return await rebuildableTransaction(ctx.db, async (trx) => {
      const rows = await fillsNeedingCandles(trx, limit);
      if (rows.length === 0) return 0;
      // Fills before candles, in one order with the keeper's writes of the same fills (db/row-locks.ts).
      await lockFills(
        trx,
        rows.map((r) => r.id),
      );
      const add = rows.filter((r) => !FAILED.has(r.status));
      const remove = rows.filter((r) => FAILED.has(r.status) && num(r.candle_state) === CANDLE_COUNTED);
      const never = rows.filter((r) => FAILED.has(r.status) && num(r.candle_state) === 0);
      const ids = (list: FillRow[], state: number) => list.filter((r) => num(r.candle_state) === state).map((r) => r.id);
      const claimed =
        (await setCandleState(trx, ids(add, 0), 0, CANDLE_COUNTED)) +
        (await setCandleState(trx, ids(add, CANDLE_LEFT_OUT), CANDLE_LEFT_OUT, CANDLE_COUNTED)) +
        (await setCandleState(trx, ids(remove, CANDLE_COUNTED), CANDLE_COUNTED, CANDLE_LEFT_OUT)) +
        (await setCandleState(trx, ids(never, 0), 0, CANDLE_LEFT_OUT));
      if (claimed !== rows.length) throw new ClaimedElsewhere();
      await addFills(trx, add);
      await takeOut(trx, remove);
      return rows.length;
    });
  } catch (error) {
    if (error instanceof ClaimedElsewhere) return 0;
    throw error;
  }
}

function byMarket(rows: FillRow[]): Map<string, CandleFill[]> {
  const markets = new Map<string, CandleFill[]>();
  for (const r of rows) markets.set(r.market_id, [...(markets.get(r.market_id) ?? []), candleFill(r)]);
  return new Map([...markets].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

async function addFills(trx: Db, rows: FillRow[]): Promise<void> {
  const markets = byMarket(rows);
  for (const seconds of INTERVAL_SECONDS) {
    for (const [marketId, fills] of markets) {
      for (const c of foldCandles(
        fills.map((f) => fillCandle(f, seconds)),
        seconds,
      ))
        await mergeCandle(trx, marketId, seconds, c);
    }
  }
}

async function takeOut(trx: Db, rows: FillRow[]): Promise<void> {
  const markets = byMarket(rows);
  for (const seconds of INTERVAL_SECONDS) {
    for (const [marketId, fills] of markets) {
      const starts = [...new Set(fills.map((f) => bucketStart(f.at, seconds)))].sort((a, b) => a - b);
      for (const start of starts) await recompute(trx, marketId, seconds, start);
    }
  }
}

/** One candle again from what it holds: a minute from its counted fills, a coarser one from its finer candles. */
async function recompute(trx: Db, marketId: string, seconds: number, start: number): Promise<void> {
  await lockCandle(trx, marketId, seconds, start);
  let parts: Candle[];
  if (seconds === MINUTE) {
    const row = await findCandle(trx, marketId, seconds, start);
    if (!row) return;
    const held = toCandle(row);
    const fills = await countedFillsBetween(trx, marketId, held.openSeq, held.closeSeq);
    parts = fills.map(candleFill).flatMap((f) => (bucketStart(f.at, MINUTE) === start ? [fillCandle(f, MINUTE)] : []));
  } else {
    const finer = INTERVAL_SECONDS[INTERVAL_SECONDS.indexOf(seconds as (typeof INTERVAL_SECONDS)[number]) - 1]!;
    parts = (await candlesBetween(trx, marketId, finer, start, start + seconds - 1, seconds / finer)).map(toCandle);
  }
  const [fresh] = foldCandles(parts, seconds);
  if (fresh) await replaceCandle(trx, marketId, seconds, fresh);
  else await deleteCandle(trx, marketId, seconds, start);
}

/**
 * A market's candles made again from its fills alone (failed ones left out), each fill's
 * candle_state set to match, in one transaction. Minutes from the fills, then each interval from
 * the one below: another path than the job's, which folds each fill into every interval.
 */
export async function rebuildCandles(ctx: Pick<FamilyCContext, 'db'>, marketId: string): Promise<{ fills: number }> {
  return ctx.db.transaction().execute(async (trx) => {
    await deleteMarketCandles(trx, marketId);
    await resetMarketCandleStates(trx, marketId);
    const minutes = new Map<number, Candle>();
    let counted = 0;
    for (let after = -1n; ;) {
      const page = await marketFillsAfter(trx, marketId, after, 1_000);
      if (page.length === 0) break;
      after = big(page[page.length - 1]!.seq);
      for (const r of page) {
        if (FAILED.has(r.status)) continue;
        const part = fillCandle(candleFill(r), MINUTE);
        const prev = minutes.get(part.start);
        minutes.set(part.start, prev ? mergeCandles(prev, part) : part);
        counted++;
      }
    }
    let level = [...minutes.values()].sort((a, b) => a.start - b.start);
    for (const seconds of INTERVAL_SECONDS) {
      level = foldCandles(level, seconds);
      await insertCandles(trx, marketId, seconds, level);
    }
    return { fills: counted };
  });
}
