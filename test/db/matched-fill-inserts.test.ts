/**
 * `insertMatchedFills` (the matcher's precompiled multi-row insert) stores every column of every
 * fill as given, with the defaulted columns at their defaults, on both dialects: 1, 64 and 130
 * rows (one statement of each exact count, then 64 + 64 + 2), every value distinct per row so a
 * parameter written to the wrong column or row shows (read back as the matcher's events read rows: normalized; candle_state, which they do not read, as a number).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { insertMatchedFills, type MatchedFillInsert } from '../../db/repositories/clob-fill-inserts.js';
import { fillsByIds, normalizeFill } from '../../db/repositories/clob-fills.repository.js';
import { DIALECTS } from '../helpers/databases.js';

function matchedFill(i: number): MatchedFillInsert {
  const n = 100 * i;
  return {
    id: randomUUID(),
    market_id: `m${i}`,
    seq: BigInt(n + 1),
    maker_order_id: `maker-${i}`,
    taker_order_id: `taker-${i}`,
    maker_owner: `mo-${i}`,
    taker_owner: `to-${i}`,
    taker_side: i % 2 === 0 ? 'buy' : 'sell',
    outcome: i % 3 === 0 ? 'yes' : 'no',
    price_bps: n + 2,
    maker_side: i % 2 === 0 ? 'sell' : 'buy',
    maker_outcome: i % 3 === 0 ? 'no' : 'yes',
    maker_price_bps: n + 3,
    fill_type: i % 2 === 0 ? 'direct' : 'complementary',
    quantity: BigInt(n + 4) * 1_000_000_000n, // beyond 2^53: kept exact
    usdc_amount: BigInt(n + 5),
    maker_usdc: BigInt(n + 6),
    taker_fee: BigInt(n + 7),
    maker_rebate: BigInt(n + 8),
    protocol_fee: BigInt(n + 9),
    rounding_dust: BigInt(n + 10),
    status: 'matched',
    retry_count: n + 11,
    failure_reason: i % 2 === 0 ? null : `why-${i}`,
    batch_id: null,
    settle_tx: i % 2 === 0 ? null : `tx-${i}`,
    positions_applied: i % 2,
    matched_at: `2026-11-26T00:00:${String(i % 60).padStart(2, '0')}.000Z`,
    settled_at: null,
    updated_at: `2026-11-26T01:00:${String(i % 60).padStart(2, '0')}.000Z`,
  };
}

for (const dialect of DIALECTS) {
  describe.skipIf(!dialect.available)(`the matcher's fill insert on ${dialect.name}`, () => {
    let handle: DatabaseHandle;
    beforeAll(async () => {
      handle = await dialect.open();
    });
    afterAll(async () => {
      await handle?.close();
    });

    for (const count of [1, 64, 130]) {
      it(`stores ${count} fills column for column, the defaulted columns at their defaults`, async () => {
        const rows = Array.from({ length: count }, (_, i) => matchedFill(i + count * 1_000));
        await handle.db.transaction().execute((trx) => insertMatchedFills(trx, rows));
        const read = await fillsByIds(
          handle.db,
          rows.map((r) => r.id),
        );
        const stored = new Map(read.map((r) => [r.id, { ...normalizeFill(r), candle_state: Number(r.candle_state) }]));
        expect(stored.size).toBe(count);
        for (const row of rows) expect(stored.get(row.id)).toEqual({ ...row, give_back: null, give_back_order_id: null, candle_state: 0 });
      });
    }
  });
}
