/**
 * A planning pass's read (`waitingFillsWithRoom`, issue 31's fifteenth pass): one statement answers
 * what `countBatchesInFlight` and `matchedFillsOfMarket` answered in two, on both databases — the
 * same rows, byte for byte, the orders in flight left out — and reads no fill when no batch can start.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { insertFills } from '../../db/repositories/clob-fills.repository.js';
import {
  countBatchesInFlight,
  insertBatch,
  matchedFillsOfMarket,
  waitingFillsWithRoom,
} from '../../db/repositories/clob-settlement.repository.js';
import { DIALECTS } from '../helpers/databases.js';
import { counting } from '../helpers/statement-capture.js';
import { FILL_ROW_TIME, fillRow } from '../helpers/fill-rows.js';

let seqs = 0;

for (const dialect of DIALECTS) {
  describe.skipIf(!dialect.available)(`a planning pass's read on ${dialect.name}`, () => {
    let handle: DatabaseHandle;
    beforeAll(async () => {
      handle = await dialect.open();
    });
    afterAll(async () => {
      await handle?.close();
    });

    it('answers the batches in flight and the waiting fills in one statement, rows as the fills read gives them', async () => {
      const market = randomUUID();
      const rows = Array.from({ length: 6 }, () => fillRow(randomUUID(), ++seqs, { market_id: market }));
      await insertFills(handle.db, [...rows.slice(0, 5), { ...rows[5]!, status: 'settling' as const }]);
      await insertBatch(handle.db, { id: randomUUID(), marketId: market, outboundId: randomUUID(), fillIds: [], now: FILL_ROW_TIME });
      const except = [rows[1]!.taker_order_id];
      const { db, count } = counting(handle.db);
      const read = await waitingFillsWithRoom(db, market, 3, 4, except);
      expect(count()).toBe(1);
      expect(read.room).toBe(4 - (await countBatchesInFlight(handle.db, market)));
      expect(read.room).toBe(3);
      expect(read.fills).toEqual(await matchedFillsOfMarket(handle.db, market, 3, except));
      expect(read.fills.map((f) => f.id)).toEqual([rows[0]!.id, rows[2]!.id, rows[3]!.id]);
      expect(Object.keys(read.fills[0]!)).toEqual(Object.keys((await matchedFillsOfMarket(handle.db, market, 1))[0]!));
    });

    it('reads no fill when the batches in flight fill the room', async () => {
      const market = randomUUID();
      await insertFills(handle.db, [fillRow(randomUUID(), ++seqs, { market_id: market })]);
      await insertBatch(handle.db, { id: randomUUID(), marketId: market, outboundId: randomUUID(), fillIds: [], now: FILL_ROW_TIME });
      expect(await waitingFillsWithRoom(handle.db, market, 10, 1)).toEqual({ room: 0, fills: [] });
      expect((await waitingFillsWithRoom(handle.db, market, 10, 2)).fills).toHaveLength(1);
    });
  });
}
