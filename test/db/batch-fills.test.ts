/**
 * `fillsOfBatches` (one read for a group of batches confirmed at once) answers what `fillsOfBatch`
 * answers for each batch, on both dialects: the fills still in flight in it, in batch order;
 * `setFillsAmounts` writes each fill's own receipt amounts in one statement; and `settleGroupFills`
 * settles a group's landed fills with their receipts' amounts in one UPDATE, only those still in flight in their batch.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { fillsByIds, insertFills, setFillsAmounts } from '../../db/repositories/clob-fills.repository.js';
import {
  endFills,
  fillsOfBatch,
  fillsOfBatches,
  findBatch,
  insertBatch,
  moveFillsToBatch,
  releaseFills,
} from '../../db/repositories/clob-settlement.repository.js';
import { insertBatches, settleGroupFills } from '../../db/repositories/clob-settle-group.repository.js';
import { DIALECTS } from '../helpers/databases.js';
import { FILL_ROW_TIME, fillRow } from '../helpers/fill-rows.js';

const NOW = FILL_ROW_TIME;
const fill = fillRow;

for (const dialect of DIALECTS) {
  describe.skipIf(!dialect.available)(`fills of a group of batches on ${dialect.name}`, () => {
    let handle: DatabaseHandle;
    beforeAll(async () => {
      handle = await dialect.open();
    });
    afterAll(async () => {
      await handle?.close();
    });

    it('reads each batch’s fills in flight in batch order, in one read, as the per-batch read does', async () => {
      const { db } = handle;
      const ids = Array.from({ length: 9 }, () => randomUUID());
      await insertFills(
        db,
        ids.map((id, i) => fill(id, i + 1)),
      );
      const [first, second, empty, unknown] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      // Batch order is not id order: the first batch lists its fills backwards.
      const inFirst = ids.slice(0, 4).reverse();
      const inSecond = ids.slice(4, 8);
      for (const [batchId, fillIds] of [
        [first, inFirst],
        [second, inSecond],
        [empty, []],
      ] as const) {
        await insertBatch(db, { id: batchId, marketId: 'm1', outboundId: randomUUID(), fillIds: [...fillIds], now: NOW });
        await moveFillsToBatch(db, [...fillIds], batchId, NOW);
      }
      // One fill of each batch is no longer in flight in it: settled, released back to matched.
      await endFills(db, first, [inFirst[1]!], { status: 'settled', settleTx: 'sig', now: NOW });
      await releaseFills(db, second, [inSecond[0]!], null, NOW);

      const group = await fillsOfBatches(db, [second, first, empty, unknown]);
      const idsOf = (rows: Array<{ id: string }> | undefined) => rows?.map((r) => r.id);
      expect(idsOf(group.get(first))).toEqual([inFirst[0], inFirst[2], inFirst[3]]);
      expect(idsOf(group.get(second))).toEqual(inSecond.slice(1));
      expect(idsOf(group.get(empty))).toEqual([]);
      expect(idsOf(group.get(unknown))).toEqual([]);
      for (const batchId of [first, second]) expect(group.get(batchId)).toEqual(await fillsOfBatch(db, batchId));
      expect((await fillsOfBatches(db, [])).size).toBe(0);
    });

    it('writes each fill its own receipt amounts in one statement, u64 values exact, other fills untouched', async () => {
      const { db } = handle;
      const ids = Array.from({ length: 3 }, () => randomUUID());
      await insertFills(
        db,
        ids.map((id, i) => fill(id, 100 + i)),
      );
      const amounts = (k: bigint) => ({
        usdcAmount: k,
        makerUsdc: k + 1n,
        takerFee: k + 2n,
        makerRebate: k + 3n,
        protocolFee: k + 4n,
        roundingDust: k + 5n,
      });
      const large = 9_007_199_254_740_993n; // 2^53 + 1: a number would round it
      await setFillsAmounts(db, [
        { id: ids[0]!, amounts: amounts(10n) },
        { id: ids[1]!, amounts: amounts(large) },
      ]);
      const rows = new Map((await fillsByIds(db, ids)).map((r) => [r.id, r]));
      const read = (id: string) => {
        const r = rows.get(id)!;
        return [r.usdc_amount, r.maker_usdc, r.taker_fee, r.maker_rebate, r.protocol_fee, r.rounding_dust].map((v) => BigInt(v));
      };
      expect(read(ids[0]!)).toEqual([10n, 11n, 12n, 13n, 14n, 15n]);
      expect(read(ids[1]!)).toEqual([large, large + 1n, large + 2n, large + 3n, large + 4n, large + 5n]);
      expect(read(ids[2]!)).toEqual([1n, 1n, 0n, 0n, 0n, 0n]);
    });

    it('settles a group’s fills with each its own signature and receipt in one UPDATE; a fill out of its batch keeps its row', async () => {
      const { db } = handle;
      const ids = Array.from({ length: 5 }, () => randomUUID());
      await insertFills(
        db,
        ids.map((id, i) => fill(id, 200 + i)),
      );
      const [first, second] = [randomUUID(), randomUUID()];
      for (const [batchId, fillIds] of [
        [first, ids.slice(0, 2)],
        [second, ids.slice(2, 5)],
      ] as const) {
        await insertBatch(db, { id: batchId, marketId: 'm1', outboundId: randomUUID(), fillIds: [...fillIds], now: NOW });
        await moveFillsToBatch(db, [...fillIds], batchId, NOW);
      }
      await releaseFills(db, second, [ids[4]!], null, NOW); // back to matched: out of its batch
      const receipt = (k: bigint) => ({
        usdcAmount: k,
        makerUsdc: k + 1n,
        takerFee: k + 2n,
        makerRebate: k + 3n,
        protocolFee: k + 4n,
        roundingDust: k + 5n,
      });
      const large = 9_007_199_254_740_993n; // 2^53 + 1: a number would round it
      const amounts = new Map(ids.map((id, i) => [id, receipt(i === 1 ? large : BigInt(10 * (i + 1)))]));
      const later = '2026-11-26T00:00:05.000Z';
      const moved = await settleGroupFills(
        db,
        [
          { batchId: first, settleTx: 'sig-1', fillIds: ids.slice(0, 2) },
          { batchId: second, settleTx: 'sig-2', fillIds: [ids[2]!, ids[3]!, ids[4]!] },
        ],
        later,
        amounts,
      );
      expect(new Set(moved.map((r) => r.id))).toEqual(new Set(ids.slice(0, 4)));
      const rows = new Map((await fillsByIds(db, ids)).map((r) => [r.id, r]));
      // The rows it returns are the rows as they are now.
      for (const r of moved) expect(r).toEqual(rows.get(r.id));
      const read = (id: string) => {
        const r = rows.get(id)!;
        return [r.usdc_amount, r.maker_usdc, r.taker_fee, r.maker_rebate, r.protocol_fee, r.rounding_dust].map((v) => BigInt(v));
      };
      expect(read(ids[0]!)).toEqual([10n, 11n, 12n, 13n, 14n, 15n]);
      expect(read(ids[1]!)).toEqual([large, large + 1n, large + 2n, large + 3n, large + 4n, large + 5n]);
      expect(read(ids[3]!)).toEqual([40n, 41n, 42n, 43n, 44n, 45n]);
      expect([rows.get(ids[0]!)!.settle_tx, rows.get(ids[2]!)!.settle_tx]).toEqual(['sig-1', 'sig-2']);
      expect(rows.get(ids[3]!)!.status).toBe('settled');
      // The released fill: neither settled nor given the receipt's amounts.
      expect(rows.get(ids[4]!)!.status).toBe('matched');
      expect(read(ids[4]!)).toEqual([1n, 1n, 0n, 0n, 0n, 0n]);
      // Without receipts the amounts stay as they are.
      const other = randomUUID();
      const batch = randomUUID();
      await insertFills(db, [fill(other, 300)]);
      await insertBatch(db, { id: batch, marketId: 'm1', outboundId: randomUUID(), fillIds: [other], now: NOW });
      await moveFillsToBatch(db, [other], batch, NOW);
      expect((await settleGroupFills(db, [{ batchId: batch, settleTx: undefined, fillIds: [other] }], later)).map((r) => r.id)).toEqual([
        other,
      ]);
      const [row] = await fillsByIds(db, [other]);
      expect([row!.status, row!.settle_tx, BigInt(row!.usdc_amount)]).toEqual(['settled', null, 1n]);
    });

    it('inserts a group’s batches and their fills’ places together; a refused batch leaves no place behind', async () => {
      const { db } = handle;
      const ids = Array.from({ length: 3 }, () => randomUUID());
      await insertFills(
        db,
        ids.map((id, i) => fill(id, 400 + i)),
      );
      const [first, second] = [randomUUID(), randomUUID()];
      const outbound = randomUUID();
      await insertBatches(db, [
        { id: first, marketId: 'm1', outboundId: outbound, fillIds: [ids[1]!, ids[0]!], now: NOW },
        { id: second, marketId: 'm1', outboundId: randomUUID(), fillIds: [ids[2]!], now: NOW },
      ]);
      await moveFillsToBatch(db, [ids[1]!, ids[0]!], first, NOW);
      await moveFillsToBatch(db, [ids[2]!], second, NOW);
      expect([Number((await findBatch(db, first))?.fill_count), (await findBatch(db, second))?.status]).toEqual([2, 'pending']);
      const group = await fillsOfBatches(db, [first, second]);
      expect(group.get(first)?.map((r) => r.id)).toEqual([ids[1], ids[0]]);
      expect(group.get(second)?.map((r) => r.id)).toEqual([ids[2]]);
      // Its outbound row already carries a batch: the insert fails whole.
      const refused = randomUUID();
      await expect(
        insertBatches(db, [{ id: refused, marketId: 'm1', outboundId: outbound, fillIds: [ids[2]!], now: NOW }]),
      ).rejects.toThrow();
      expect(await findBatch(db, refused)).toBeUndefined();
      const places = await db.selectFrom('clob_batch_fills').select('fill_id').where('batch_id', '=', refused).execute();
      expect(places).toEqual([]);
    });
  });
}
