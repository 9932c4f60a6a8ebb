/**
 * The positions job reads a run's (owner, market) pairs in one query and writes what changed in
 * one upsert (issue 31). Each position must come out as the fills applied one by one from what
 * was saved say, on both dialects: owners in several markets, a saved position updated in place
 * (its id kept), new ones created, an outcome no fill touched left as it was, and every fill
 * marked applied once.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { insertFills, normalizeFill } from '../../db/repositories/clob-fills.repository.js';
import { findPosition, savePosition } from '../../db/repositories/clob-positions.repository.js';
import { applyOwnerMove, EMPTY_POSITION, fillMoves, type MarketPositions } from '../../src/domain/orderbook/index.js';
import { applySettledFills } from '../../src/services/family-c/positions.service.js';
import { DIALECTS } from '../helpers/databases.js';
import { FILL_ROW_TIME, fillRow } from '../helpers/fill-rows.js';

const strip = <T extends object>(p: T | undefined) => {
  if (!p) return undefined;
  const { netQuantity, totalCost, totalProceeds, totalFees, realizedPnl } = p as never as typeof EMPTY_POSITION;
  return { netQuantity, totalCost, totalProceeds, totalFees, realizedPnl };
};

for (const dialect of DIALECTS) {
  describe.skipIf(!dialect.available)(`the positions job's batched run on ${dialect.name}`, () => {
    let handle: DatabaseHandle;
    beforeAll(async () => {
      handle = await dialect.open();
    });
    afterAll(async () => {
      await handle?.close();
    });

    it('writes each position as the fills applied one by one would, in one run', async () => {
      const { db } = handle;
      const owners = ['alice', 'bob', 'carol'];
      const markets = ['m1', 'm2'];
      // Alice already holds YES in m1 (she sells some below) and NO in m2 (no fill touches it).
      const saved = { netQuantity: 50n, totalCost: 30n, totalProceeds: 0n, totalFees: 1n, realizedPnl: 0n };
      await savePosition(db, { id: 'kept-id', owner: 'alice', marketId: 'm1', outcome: 'yes', ...saved, updatedAt: FILL_ROW_TIME });
      await savePosition(db, { owner: 'alice', marketId: 'm2', outcome: 'no', ...saved, updatedAt: FILL_ROW_TIME });
      const fills = Array.from({ length: 12 }, (_, i) =>
        fillRow(randomUUID(), 1000 + i, {
          market_id: markets[i % 2]!,
          maker_owner: owners[i % 3]!,
          taker_owner: owners[(i + 1) % 3]!,
          taker_side: i % 4 === 0 ? ('sell' as const) : ('buy' as const),
          maker_side: i % 4 === 0 ? ('buy' as const) : ('sell' as const),
          quantity: BigInt(3 + i),
          usdc_amount: BigInt(2 + i),
          maker_usdc: BigInt(2 + i),
          taker_fee: 1n,
          status: 'settled' as const,
          settled_at: FILL_ROW_TIME,
        }),
      );
      await insertFills(db, fills);

      // The expected positions: every fill applied in order from what was saved.
      const expected = new Map<string, MarketPositions>();
      for (const o of owners) for (const m of markets) expected.set(`${o}|${m}`, { yes: EMPTY_POSITION, no: EMPTY_POSITION });
      expected.set('alice|m1', { yes: saved, no: EMPTY_POSITION });
      expected.set('alice|m2', { yes: EMPTY_POSITION, no: saved });
      for (const f of fills.map((r) => normalizeFill(r as never)))
        for (const move of fillMoves(f))
          expected.set(`${move.owner}|${f.market_id}`, applyOwnerMove(expected.get(`${move.owner}|${f.market_id}`)!, move));

      expect(await applySettledFills({ db })).toBe(fills.length);
      expect(await applySettledFills({ db })).toBe(0); // each fill once
      for (const [key, pair] of expected) {
        const [owner, market] = key.split('|') as [string, string];
        for (const outcome of ['yes', 'no'] as const) {
          const row = await findPosition(db, owner, market, outcome);
          const want = pair[outcome] === EMPTY_POSITION ? undefined : strip(pair[outcome]);
          expect([key, outcome, strip(row)]).toEqual([key, outcome, want]);
        }
      }
      expect((await findPosition(db, 'alice', 'm1', 'yes'))?.id).toBe('kept-id');
    });
  });
}
