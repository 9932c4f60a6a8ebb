/**
 * The slot guard of the Family B index on both dialects: a row read at an older slot never
 * replaces a newer one, a read at the same slot does (two changes in one slot), and a closed
 * account is deleted only by a read at least as new as the row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { findChainMarket, upsertChainMarket, type ChainMarketRow } from '../../db/repositories/chain-markets.repository.js';
import { balancesByOwner, deleteClosedTokenAccount, upsertTokenAccounts } from '../../db/repositories/token-accounts.repository.js';
import { DIALECTS } from '../helpers/databases.js';

const account = (amount: bigint, slot: bigint) => ({ address: 'Acct1111', mint: 'MintYes1', owner: 'Owner111', amount, slot });
const market = (status: string, slot: bigint): ChainMarketRow => ({
  marketId: 7n,
  address: 'Market11',
  creator: 'Creator1',
  status,
  mode: 'amm',
  yesMint: 'MintYes1',
  noMint: 'MintNo11',
  data: Buffer.from(status),
  slot,
});

for (const dialect of DIALECTS) {
  describe.skipIf(!dialect.available)(`index slot guard on ${dialect.name}`, () => {
    let handle: DatabaseHandle;
    beforeAll(async () => {
      handle = await dialect.open();
    });
    afterAll(async () => {
      await handle?.close();
    });

    it('keeps the newest token-account read and accepts a second change in the same slot', async () => {
      const { db } = handle;
      await upsertTokenAccounts(db, [account(100n, 10n)]);
      await upsertTokenAccounts(db, [account(50n, 9n)]); // an older read arriving late
      expect(await balancesByOwner(db, 'Owner111')).toEqual(new Map([['MintYes1', 100n]]));
      await upsertTokenAccounts(db, [account(70n, 10n)]); // same slot, later change
      expect(await balancesByOwner(db, 'Owner111')).toEqual(new Map([['MintYes1', 70n]]));
      await deleteClosedTokenAccount(db, 'Acct1111', 9n); // an older "closed" read
      expect(await balancesByOwner(db, 'Owner111')).toEqual(new Map([['MintYes1', 70n]]));
      await deleteClosedTokenAccount(db, 'Acct1111', 11n);
      expect(await balancesByOwner(db, 'Owner111')).toEqual(new Map());
    });

    it('lets concurrent writers of the same accounts in any order finish (one lock order: no deadlock), newest slot kept', async () => {
      const { db } = handle;
      const rows = Array.from({ length: 300 }, (_, i) => ({
        address: `Lock${String(i).padStart(4, '0')}`,
        mint: 'MintLock',
        owner: 'LockOwner',
        amount: BigInt(i),
        slot: 20n,
      }));
      // Each writer sends the same accounts shuffled, some twice (an older read too), at its own slot.
      const writers = Array.from({ length: 8 }, (_, w) => {
        const mine = rows.map((r) => ({ ...r, amount: r.amount + BigInt(w), slot: 20n + BigInt(w) }));
        const shuffled = [...mine, ...mine.slice(0, 20).map((r) => ({ ...r, slot: 1n }))].sort(() => Math.random() - 0.5);
        return upsertTokenAccounts(db, shuffled);
      });
      await Promise.all(writers);
      const total = (await balancesByOwner(db, 'LockOwner')).get('MintLock');
      // The newest writer (slot 27) wins every row: Σ (i + 7) for i < 300.
      expect(total).toBe(BigInt((299 * 300) / 2 + 7 * 300));
    });

    it('never lets an older market read replace a newer one', async () => {
      const { db } = handle;
      await upsertChainMarket(db, market('active', 20n));
      await upsertChainMarket(db, market('created', 19n));
      expect((await findChainMarket(db, 7n))?.status).toBe('active');
      await upsertChainMarket(db, market('resolved', 21n));
      const row = await findChainMarket(db, 7n);
      expect([row?.status, row?.slot, row?.data.toString()]).toEqual(['resolved', 21n, 'resolved']);
    });
  });
}
