/**
 * The price candles the job keeps fill by fill equal a rebuild from the fills alone, on both
 * databases: after matches (ties in the clock, a clock that stepped back, both outcomes, runs of
 * a few fills each), fills that failed once counted (the open and the high of their candles among
 * them), a fill that failed before the job saw it, and a failed fill re-driven to `matched`.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { allMarketCandles, fillsNeedingCandles } from '../../db/repositories/clob-candles.repository.js';
import type { DatabaseHandle } from '../../db/database.js';
import { applyCandleChanges, rebuildCandles } from '../../src/services/family-c/candles.service.js';
import { DIALECTS } from '../helpers/databases.js';
import { rng } from '../helpers/rng.js';

const MARKET = 'market-1';
const T0 = Date.parse('2026-11-26T10:58:30.000Z'); // crosses a minute, an hour and (in 26 h) a day

type Status = 'matched' | 'settled' | 'failed' | 'failed_insufficient_balance';

function fillRow(seq: number, at: number, outcome: 'yes' | 'no', priceBps: number, quantity: bigint, status: Status = 'matched') {
  const iso = new Date(at).toISOString();
  return {
    id: randomUUID(),
    market_id: MARKET,
    seq: BigInt(seq),
    maker_order_id: 'maker',
    taker_order_id: 'taker',
    maker_owner: 'a',
    taker_owner: 'b',
    taker_side: 'buy' as const,
    outcome,
    price_bps: priceBps,
    maker_side: 'sell' as const,
    maker_outcome: outcome,
    maker_price_bps: priceBps,
    fill_type: 'direct' as const,
    quantity,
    usdc_amount: 0n,
    maker_usdc: 0n,
    taker_fee: 0n,
    maker_rebate: 0n,
    protocol_fee: 0n,
    rounding_dust: 0n,
    status,
    retry_count: 0,
    failure_reason: null,
    batch_id: null,
    settle_tx: null,
    positions_applied: 0,
    matched_at: iso,
    settled_at: null,
    updated_at: iso,
  };
}

async function drain(db: DatabaseHandle, limit: number): Promise<void> {
  for (let i = 0; i < 1_000 && (await applyCandleChanges({ db: db.db }, limit)) > 0; i++);
  expect(await fillsNeedingCandles(db.db, 10)).toEqual([]);
}

const setStatus = (db: DatabaseHandle, seq: number, status: Status) =>
  db.db.updateTable('clob_fills').set({ status }).where('market_id', '=', MARKET).where('seq', '=', BigInt(seq)).execute();

describe.each(DIALECTS)('price candles on $name', ({ available, open }) => {
  it.skipIf(!available)('the candles the job keeps equal a rebuild from the fills, after matches and failed fills', async () => {
    const db = await open();
    try {
      const random = rng(30);
      const rows: Array<ReturnType<typeof fillRow>> = [];
      let at = T0;
      for (let seq = 1; seq <= 120; seq++) {
        // Mostly forward by up to 40 s; a tie now and then, and a clock that steps back 5 s.
        const step = random();
        at += step < 0.1 ? 0 : step < 0.15 ? -5_000 : Math.floor(random() * 40_000);
        if (seq === 100) at += 26 * 3_600_000; // a second day
        const outcome = random() < 0.5 ? 'yes' : 'no';
        rows.push(fillRow(seq, at, outcome, 1 + Math.floor(random() * 9_999), BigInt(1 + Math.floor(random() * 5_000_000))));
      }
      await db.db.insertInto('clob_fills').values(rows).execute();
      await drain(db, 7);
      const counted = await allMarketCandles(db.db, MARKET);
      expect(counted.length).toBeGreaterThan(0);

      // Failures once counted: the first fill (an open of every interval), a high, a fill in mid-run.
      const yes = (r: (typeof rows)[number]) => (r.outcome === 'yes' ? r.price_bps : 10_000 - r.price_bps);
      const highest = rows.slice(0, 99).reduce((best, r) => (yes(r) > yes(best) ? r : best));
      for (const seq of [1, Number(highest.seq), 50]) await setStatus(db, seq, 'failed_insufficient_balance');
      // A fill that fails before the job ever sees it.
      await db.db
        .insertInto('clob_fills')
        .values(fillRow(121, at + 1_000, 'yes', 9_999, 7n, 'failed'))
        .execute();
      await drain(db, 2);
      // A failed fill re-driven by an operator counts again.
      await setStatus(db, 50, 'matched');
      await drain(db, 500);

      const kept = await allMarketCandles(db.db, MARKET);
      const day = kept.find((c) => Number(c.interval_seconds) === 86_400 && Number(c.start_unix) === Math.floor(T0 / 86_400_000) * 86_400)!;
      expect(Number(day.open_seq)).toBe(2); // fill 1 failed: the day opens with fill 2
      expect(Number(day.high_bps)).toBeLessThanOrEqual(yes(highest));
      expect(kept.some((c) => Number(c.close_bps) === 9_999 && Number(c.close_seq) === 121)).toBe(false);

      await rebuildCandles({ db: db.db }, MARKET);
      const rebuilt = await allMarketCandles(db.db, MARKET);
      expect(rebuilt).toEqual(kept);
      expect(kept).not.toEqual(counted);
      // A rebuild leaves the job nothing to do.
      expect(await fillsNeedingCandles(db.db, 10)).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
