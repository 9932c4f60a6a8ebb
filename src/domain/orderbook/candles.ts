/**
 * Price candles (open, high, low, close, volume) of a market, from its fills. Pure.
 *
 * One set of candles per market, in YES basis points: a fill at price p in outcome o is a YES
 * price of p when o is YES and 10000 − p when o is NO — the rule the book's last price follows
 * (match.ts: `lastPrice[o] = p`, `lastPrice[ō] = 10000 − p`), since buying YES at p and selling NO
 * at 10000 − p are the same trade in the unified book. NO's candle is YES's mirrored
 * (`inOutcome`): its high is 10000 − YES's low. Volume is the fill's quantity in outcome-token
 * raw units, the same in both outcomes (a complementary fill moves q of each).
 *
 * Open and close follow match order (the fill's per-market `seq`), not the clock: two fills in
 * the same millisecond, or a clock that stepped back between matcher nodes, still open with the
 * first matched. So a candle carries its first and last seq, and merging two partial candles of
 * one bucket is associative and commutative: the incremental job and a rebuild from scratch give
 * the same candle whatever order they fold fills in.
 */
import type { Outcome } from './types.js';

export const CANDLE_INTERVALS = { '1m': 60, '5m': 300, '1h': 3_600, '1d': 86_400 } as const;
export type CandleInterval = keyof typeof CANDLE_INTERVALS;
/** Interval lengths in seconds, finest first: each divides the next, so a coarse candle is its finer candles merged. */
export const INTERVAL_SECONDS = [60, 300, 3_600, 86_400] as const;

/** What a candle needs of a fill. */
export interface CandleFill {
  seq: bigint;
  outcome: Outcome;
  priceBps: number;
  quantity: bigint;
  /** When it matched, unix seconds. */
  at: number;
}

/** A candle in YES bps; `start` in unix seconds. */
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

export const yesPriceOf = (outcome: Outcome, priceBps: number): number => (outcome === 'yes' ? priceBps : 10_000 - priceBps);

/** The start of the bucket of `seconds` that holds `at` (floor: a candle covers [start, start + seconds)). */
export const bucketStart = (at: number, seconds: number): number => Math.floor(at / seconds) * seconds;

export function fillCandle(fill: CandleFill, seconds: number): Candle {
  const price = yesPriceOf(fill.outcome, fill.priceBps);
  return {
    start: bucketStart(fill.at, seconds),
    open: price,
    high: price,
    low: price,
    close: price,
    volume: fill.quantity,
    openSeq: fill.seq,
    closeSeq: fill.seq,
    fills: 1,
  };
}

/** Two candles of one bucket as one. */
export function mergeCandles(a: Candle, b: Candle): Candle {
  const first = a.openSeq <= b.openSeq ? a : b;
  const last = a.closeSeq >= b.closeSeq ? a : b;
  return {
    start: a.start,
    open: first.open,
    high: Math.max(a.high, b.high),
    low: Math.min(a.low, b.low),
    close: last.close,
    volume: a.volume + b.volume,
    openSeq: first.openSeq,
    closeSeq: last.closeSeq,
    fills: a.fills + b.fills,
  };
}

/** The candles of `seconds` that the fills (or finer candles) make, by start, in order of start. */
export function foldCandles(parts: Iterable<Candle>, seconds: number): Candle[] {
  const byStart = new Map<number, Candle>();
  for (const part of parts) {
    const start = bucketStart(part.start, seconds);
    const prev = byStart.get(start);
    byStart.set(start, prev ? mergeCandles(prev, { ...part, start }) : { ...part, start });
  }
  return [...byStart.values()].sort((x, y) => x.start - y.start);
}

/** A candle as the API shows it for one outcome: NO mirrors YES (its high is 10000 − YES's low). */
export function inOutcome(c: Candle, outcome: Outcome) {
  const mirror = (p: number) => (outcome === 'yes' ? p : 10_000 - p);
  return {
    t: c.start,
    open: mirror(c.open),
    high: outcome === 'yes' ? c.high : 10_000 - c.low,
    low: outcome === 'yes' ? c.low : 10_000 - c.high,
    close: mirror(c.close),
    volume: c.volume.toString(),
  };
}

/** How many candle starts of `seconds` lie in [from, to] (from's own bucket included). */
export function bucketsBetween(from: number, to: number, seconds: number): number {
  return (bucketStart(to, seconds) - bucketStart(from, seconds)) / seconds + 1;
}
