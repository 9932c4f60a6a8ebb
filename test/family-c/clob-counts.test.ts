/**
 * The orderbook gauges read from the database at scrape time, on both databases: fills per status
 * and the age of the oldest fill not settled (matched, settling or retrying; settled and failed
 * fills do not count), and a database that stops answering leaves those gauges out of the scrape
 * instead of failing it. An operator's re-drive counts as the fill's move back to matched.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ClobFillStatus } from '../../db/schema.js';
import { createMetrics } from '../../src/infra/metrics.js';
import { clobCounts } from '../../src/services/family-c/clob-counts.service.js';
import { redriveFailedFill } from '../../src/services/family-c/settlement/keeper-admin.service.js';
import { DIALECTS } from '../helpers/databases.js';
import { sample } from '../helpers/metrics-text.js';

const NOW = Date.parse('2026-11-26T12:00:00.000Z');

function fill(status: ClobFillStatus, ageSeconds: number) {
  const at = new Date(NOW - ageSeconds * 1000).toISOString();
  return {
    id: randomUUID(),
    market_id: randomUUID(),
    seq: 1n,
    maker_order_id: randomUUID(),
    taker_order_id: randomUUID(),
    maker_owner: 'maker',
    taker_owner: 'taker',
    taker_side: 'buy' as const,
    outcome: 'yes' as const,
    price_bps: 6000,
    maker_side: 'sell' as const,
    maker_outcome: 'yes' as const,
    maker_price_bps: 6000,
    fill_type: 'direct' as const,
    quantity: 1n,
    usdc_amount: 1n,
    maker_usdc: 1n,
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
    matched_at: at,
    settled_at: null,
    updated_at: at,
  };
}

describe.each(DIALECTS)('orderbook gauges from the database on $name', ({ available, open }) => {
  it.skipIf(!available)('reports fills per status and the oldest unsettled one; a database away leaves them out', async () => {
    const db = await open();
    const metrics = createMetrics();
    try {
      const rows = [
        fill('matched', 30),
        fill('matched', 5),
        fill('settling', 10),
        fill('retrying', 50),
        fill('settled', 100),
        fill('failed', 200),
        fill('failed_insufficient_balance', 300),
      ];
      await db.db.insertInto('clob_fills').values(rows).execute();
      metrics.clob.setCountsSource(() => clobCounts({ db: db.db }, NOW));
      const text = await metrics.registry.metrics();
      const fills = (status: string) => sample(text, 'pmx_clob_fills', { status });
      expect([fills('matched'), fills('settling'), fills('retrying'), fills('settled'), fills('failed')]).toEqual([2, 1, 1, 1, 1]);
      expect(fills('failed_insufficient_balance')).toBe(1);
      expect(sample(text, 'pmx_clob_oldest_unsettled_fill_seconds')).toBe(50);
      expect(sample(text, 'pmx_clob_markets', { status: 'active' })).toBeUndefined(); // no market rows here

      await db.db.updateTable('clob_fills').set({ status: 'settled' }).where('status', '!=', 'settled').execute();
      metrics.clob.setCountsSource(() => clobCounts({ db: db.db }, NOW)); // a new source reads at once
      const settled = await metrics.registry.metrics();
      expect(sample(settled, 'pmx_clob_oldest_unsettled_fill_seconds')).toBe(0);
      expect(sample(settled, 'pmx_clob_fills', { status: 'matched' })).toBeUndefined();
    } finally {
      await db.close();
    }
    metrics.clob.setCountsSource(() => clobCounts({ db: db.db }, NOW));
    const away = await metrics.registry.metrics();
    expect(sample(away, 'pmx_clob_fills', { status: 'settled' })).toBeUndefined();
    expect(away).toMatch(/^# HELP pmx_clob_fills /m); // the scrape itself answered
  });

  it.skipIf(!available)('counts a re-driven fill as failed → matched, once', async () => {
    const db = await open();
    const metrics = createMetrics();
    try {
      const failed = fill('failed', 60);
      await db.db.insertInto('clob_fills').values(failed).execute();
      const ctx = { db: db.db, metrics: metrics.clob };
      const moved = () =>
        metrics.registry.metrics().then((t) => sample(t, 'pmx_clob_fill_transitions_total', { from: 'failed', to: 'matched' }));
      expect(await redriveFailedFill(ctx, failed.id)).toEqual({ marketId: failed.market_id });
      expect(await moved()).toBe(1);
      await expect(redriveFailedFill(ctx, failed.id)).rejects.toMatchObject({ code: 'FILL_NOT_FAILED' });
      expect(await moved()).toBe(1);
    } finally {
      await db.close();
    }
  });
});
