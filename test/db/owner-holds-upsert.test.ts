/**
 * The fill holds' upsert, compiled once per row count (clob-commitments.repository.ts): every
 * merged row's three amounts land in its own columns at every count (one statement of exactly up
 * to 512 rows, then the rest), a second write adds to the rows the first made, and the matcher's
 * one-statement write (PostgreSQL, clob-batch-writes.ts) takes the same compiled statement.
 */
import { describe, expect, it, vi } from 'vitest';
import { addOwnerHolds, ownerHoldsStatement, type HoldRow } from '../../db/repositories/clob-commitments.repository.js';
import { DIALECTS } from '../helpers/databases.js';

/** Row `i` of a write of `count`: its own (owner, market), amounts different from its neighbours'. */
const hold = (i: number, count: number): HoldRow => ({
  owner: `owner-${count}-${String(i).padStart(4, '0')}`,
  marketId: `m${i % 3}`,
  usdc: BigInt(count * 1_000_000 + i),
  yes: BigInt(i * 7),
  no: BigInt(-i),
});

describe.each(DIALECTS)('owner holds upsert on $name', ({ available, open }) => {
  it.skipIf(!available)('adds every row at every count (1 to 600 rows), twice', async () => {
    const h = await open();
    try {
      for (const count of [1, 2, 511, 512, 513, 600]) {
        const rows = Array.from({ length: count }, (_, i) => hold(i, count));
        await h.db.transaction().execute((trx) => addOwnerHolds(trx, rows, 1n));
        await h.db.transaction().execute((trx) => addOwnerHolds(trx, rows.slice(0, 5), -1n));
        await h.db.transaction().execute((trx) => addOwnerHolds(trx, rows, 1n));
        const stored = await h.db
          .selectFrom('clob_owner_holds')
          .selectAll()
          .where('owner', 'like', `owner-${count}-%`)
          .orderBy('owner')
          .execute();
        expect(
          stored.map((r) => ({
            owner: r.owner,
            marketId: r.market_id,
            usdc: BigInt(r.usdc),
            yes: BigInt(r.yes_tokens),
            no: BigInt(r.no_tokens),
          })),
        ).toEqual(
          rows.map((r, i) => {
            const times = i < 5 ? 1n : 2n;
            return { ...r, usdc: r.usdc * times, yes: r.yes * times, no: r.no * times };
          }),
        );
      }
    } finally {
      await h.close();
    }
  });

  it.skipIf(!available)('compiles each count once: a second write of a count builds nothing', async () => {
    const h = await open();
    try {
      const first = ownerHoldsStatement(h.db, [hold(0, 3), hold(1, 3), hold(2, 3)]);
      const build = vi.spyOn(h.db, 'insertInto');
      const second = ownerHoldsStatement(h.db, [hold(0, 4), hold(1, 4), hold(2, 4)]);
      expect(build).not.toHaveBeenCalled();
      expect(second.sql).toBe(first.sql);
      expect(second.parameters).toEqual([hold(0, 4), hold(1, 4), hold(2, 4)].flatMap((r) => [r.owner, r.marketId, r.usdc, r.yes, r.no]));
      expect(() => ownerHoldsStatement(h.db, [])).toThrow(/1 to maxRows/);
    } finally {
      await h.close();
    }
  });
});
