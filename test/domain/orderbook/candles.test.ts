/**
 * Candles and quotes, pure: a NO candle mirrors the YES one; folding fills in any order, or
 * through finer candles first, gives the same candle (what lets the job and a rebuild agree);
 * mid and spread need both sides, and the mid is exact.
 */
import { describe, expect, it } from 'vitest';
import { bucketsBetween, fillCandle, foldCandles, inOutcome, quoteOf, type CandleFill } from '../../../src/domain/orderbook/index.js';
import { rng } from '../../helpers/rng.js';

const T = 1_795_000_000;

describe('price candles', () => {
  it('prices a NO fill at 10000 − p in YES terms and mirrors high and low for NO', () => {
    const fills: CandleFill[] = [
      { seq: 1n, outcome: 'yes', priceBps: 6000, quantity: 2n, at: T },
      { seq: 2n, outcome: 'no', priceBps: 3000, quantity: 1n, at: T }, // YES 7000
      { seq: 3n, outcome: 'yes', priceBps: 4001, quantity: 4n, at: T },
    ];
    const [yes] = foldCandles(
      fills.map((f) => fillCandle(f, 86_400)),
      86_400,
    );
    expect(inOutcome(yes!, 'yes')).toEqual({
      t: Math.floor(T / 86_400) * 86_400,
      open: 6000,
      high: 7000,
      low: 4001,
      close: 4001,
      volume: '7',
    });
    expect(inOutcome(yes!, 'no')).toMatchObject({ open: 4000, high: 5999, low: 3000, close: 5999, volume: '7' });
  });

  it('opens and closes by seq, whatever order the fills are folded in, directly or through finer candles', () => {
    const random = rng(7);
    const fills: CandleFill[] = Array.from({ length: 300 }, (_, i) => ({
      seq: BigInt(i + 1),
      outcome: random() < 0.5 ? 'yes' : 'no',
      priceBps: 1 + Math.floor(random() * 9_999),
      quantity: BigInt(1 + Math.floor(random() * 100)),
      at: T + Math.floor(random() * 20_000) - (i % 7 === 0 ? 90 : 0), // the clock steps back now and then
    }));
    const direct = foldCandles(
      fills.map((f) => fillCandle(f, 3_600)),
      3_600,
    );
    const shuffled = [...fills].sort(() => random() - 0.5);
    const viaMinutes = foldCandles(
      foldCandles(
        shuffled.map((f) => fillCandle(f, 60)),
        60,
      ),
      3_600,
    );
    expect(viaMinutes).toEqual(direct);
    for (const c of direct) {
      const inside = fills.filter((f) => Math.floor(f.at / 3_600) * 3_600 === c.start);
      expect(c.openSeq).toBe(inside[0]!.seq);
      expect(c.closeSeq).toBe(inside.at(-1)!.seq);
    }
  });

  it('counts buckets of a range from the bucket of from', () => {
    expect(bucketsBetween(0, 59, 60)).toBe(1);
    expect(bucketsBetween(59, 60, 60)).toBe(2);
    expect(bucketsBetween(0, 999 * 60 + 59, 60)).toBe(1_000);
  });
});

describe('quotes', () => {
  it('mid and spread only with both sides; the mid is exact', () => {
    const q = quoteOf({ bestBid: { yes: 4001, no: 3000 }, bestAsk: { yes: 6000, no: null }, lastPrice: { yes: null, no: null } });
    expect(q.mid).toEqual({ yes: 5000.5, no: null });
    expect(q.spread).toEqual({ yes: 1999, no: null });
  });
});
