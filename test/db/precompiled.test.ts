/**
 * Reads compiled once (db/precompiled.ts) answer what the built query answers, with each call's
 * own values, see every write on the next read (kept answers too: read-answers.test.ts), keep databases
 * apart, and a query whose values cannot be told apart is run as built rather than mis-bound.
 */
import { describe, expect, it } from 'vitest';
import { precompiled, precompiledList } from '../../db/precompiled.js';
import { findChainMarket, listChainMarketsByMints, upsertChainMarket } from '../../db/repositories/chain-markets.repository.js';
import { balancesByOwner, upsertTokenAccounts } from '../../db/repositories/token-accounts.repository.js';
import { chainMarketRow } from '../helpers/chain-market-rows.js';
import { DIALECTS } from '../helpers/databases.js';

const market = chainMarketRow;

describe.each(DIALECTS)('precompiled reads on $name', ({ available, open }) => {
  it.skipIf(!available)('a market by id: each call its own id, a write seen on the next read', async () => {
    const h = await open();
    try {
      expect(await findChainMarket(h.db, 1n)).toBeUndefined();
      await upsertChainMarket(h.db, market(1n, 10n));
      await upsertChainMarket(h.db, market(2n, 10n));
      expect((await findChainMarket(h.db, 1n))?.address).toBe('market-1');
      expect((await findChainMarket(h.db, 2n))?.address).toBe('market-2');
      await upsertChainMarket(h.db, market(2n, 11n, 'resolved'));
      expect(await findChainMarket(h.db, 2n)).toMatchObject({ status: 'resolved', slot: 11n });
      expect(await findChainMarket(h.db, 3n)).toBeUndefined();
    } finally {
      await h.close();
    }
  });

  it.skipIf(!available)("a wallet's balances: positive ones only, changes seen at once", async () => {
    const h = await open();
    try {
      const acct = (address: string, owner: string, mint: string, amount: bigint) => ({ address, owner, mint, amount, slot: 1n });
      await upsertTokenAccounts(h.db, [acct('a1', 'w1', 'm1', 5n), acct('a2', 'w1', 'm2', 0n), acct('a3', 'w2', 'm1', 7n)]);
      expect(await balancesByOwner(h.db, 'w1')).toEqual(new Map([['m1', 5n]]));
      expect(await balancesByOwner(h.db, 'w2')).toEqual(new Map([['m1', 7n]]));
      await upsertTokenAccounts(h.db, [{ ...acct('a2', 'w1', 'm2', 3n), slot: 2n }]);
      expect(await balancesByOwner(h.db, 'w1')).toEqual(
        new Map([
          ['m1', 5n],
          ['m2', 3n],
        ]),
      );
    } finally {
      await h.close();
    }
  });

  it.skipIf(!available)(
    'markets by mints: each list its own markets, a list used twice bound right, a new market seen at once',
    async () => {
      const h = await open();
      try {
        await upsertChainMarket(h.db, market(1n, 10n));
        await upsertChainMarket(h.db, market(2n, 10n));
        const ids = async (mints: string[]) => (await listChainMarketsByMints(h.db, mints)).map((m) => m.marketId);
        expect(await ids(['yes-1', 'no-2'])).toEqual([1n, 2n]);
        expect(await ids(['no-1', 'nothing'])).toEqual([1n]); // the same length: the compiled statement, other values
        expect(await ids(['no-2'])).toEqual([2n]);
        expect(await ids(['nothing', 'yes-2', 'no-1'])).toEqual([1n, 2n]);
        await upsertChainMarket(h.db, market(3n, 10n));
        expect(await ids(['yes-3', 'nothing'])).toEqual([3n]);
        // A query with a constant of its own is run as built, with the right values.
        const heldAbove = precompiledList((db, mints) =>
          db.selectFrom('chain_markets').select('market_id').where('yes_mint', 'in', mints).where('status', '=', 'active'),
        );
        expect((await heldAbove(h.db, ['yes-1', 'yes-3'])).map((r) => BigInt(r.market_id as bigint))).toEqual([1n, 3n]);
        expect((await heldAbove(h.db, ['yes-2', 'x'])).map((r) => BigInt(r.market_id as bigint))).toEqual([2n]);
      } finally {
        await h.close();
      }
    },
  );

  it.skipIf(!available)('a read given the root database sees committed rows only; one given the transaction sees its own', async () => {
    const h = await open();
    try {
      await upsertChainMarket(h.db, market(1n, 10n));
      expect((await findChainMarket(h.db, 1n))?.status).toBe('active'); // compiled on the root first
      await h.db.transaction().execute(async (trx) => {
        await upsertChainMarket(trx, market(5n, 10n));
        await upsertChainMarket(trx, market(1n, 11n, 'resolved'));
        // SQLite: the read-only connection (db/read-connection.ts), not the connection the transaction holds.
        expect(await findChainMarket(h.db, 5n)).toBeUndefined();
        expect((await findChainMarket(h.db, 1n))?.status).toBe('active');
        expect((await findChainMarket(trx, 5n))?.address).toBe('market-5');
        expect((await findChainMarket(trx, 1n))?.status).toBe('resolved');
      });
      expect((await findChainMarket(h.db, 5n))?.address).toBe('market-5');
      expect((await findChainMarket(h.db, 1n))?.status).toBe('resolved');
    } finally {
      await h.close();
    }
  });

  it.skipIf(!available)('never binds values in the wrong order: equal values on the first call are not compiled from', async () => {
    const [a, b] = [await open(), await open()];
    try {
      const acct = (address: string, owner: string, mint: string) => ({ address, owner, mint, amount: 1n, slot: 1n });
      await upsertTokenAccounts(a.db, [acct('x', 'same', 'same'), acct('y', 'o', 'm')]);
      await upsertTokenAccounts(b.db, [acct('z', 'o', 'm')]);
      // The build uses its values in the opposite order to their declaration.
      const byMintAndOwner = precompiled((db, owner: string, mint: string) =>
        db.selectFrom('token_accounts').select('address').where('mint', '=', mint).where('owner', '=', owner),
      );
      expect(await byMintAndOwner(a.db, 'same', 'same')).toEqual([{ address: 'x' }]);
      expect(await byMintAndOwner(a.db, 'o', 'm')).toEqual([{ address: 'y' }]);
      expect(await byMintAndOwner(a.db, 'm', 'o')).toEqual([]);
      // Another database: its own compiled statement, its own rows.
      expect(await byMintAndOwner(b.db, 'o', 'm')).toEqual([{ address: 'z' }]);
      expect(await byMintAndOwner(a.db, 'o', 'm')).toEqual([{ address: 'y' }]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
