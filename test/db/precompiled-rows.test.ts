/**
 * Multi-row writes compiled once per database and row count (db/precompiled.ts, precompiledRows):
 * every value lands in its own column whatever the number of rows (full chunks and the binary
 * rest), and a build whose parameters are not the rows in write order is refused before it runs.
 * With `exact` (the matcher's order inserts), one statement of exactly each write's count.
 * (The one lock order across chunks on PostgreSQL: index-repositories.test.ts, concurrent writers.)
 */
import { describe, expect, it, vi } from 'vitest';
import { precompiledRows } from '../../db/precompiled.js';
import { upsertTokenAccounts, type TokenAccountRow } from '../../db/repositories/token-accounts.repository.js';
import { findOrder, insertOrders } from '../../db/repositories/clob-orders.repository.js';
import { DIALECTS } from '../helpers/databases.js';

/** Row `i` of a write of `count` rows: its own address, its values all different from its neighbours'. */
const account = (i: number, count: number): TokenAccountRow => ({
  address: `acct-${count}-${String(i).padStart(4, '0')}`,
  mint: `mint-${i % 7}`,
  owner: `owner-${i % 11}`,
  amount: BigInt(count * 1_000_000 + i),
  slot: BigInt(count),
});

describe.each(DIALECTS)('precompiled multi-row writes on $name', ({ available, open }) => {
  it.skipIf(!available)('writes every value to its column at every row count (1 to 300 rows, chunks of 128 and the rest)', async () => {
    const h = await open();
    try {
      for (const count of [1, 3, 127, 128, 129, 300]) {
        const slot = BigInt(count);
        await h.db.transaction().execute((trx) =>
          upsertTokenAccounts(
            trx,
            Array.from({ length: count }, (_, i) => account(i, count)),
          ),
        );
        const rows = await h.db.selectFrom('token_accounts').selectAll().where('slot', '=', slot).orderBy('address').execute();
        expect(
          rows.map((r) => ({ address: r.address, mint: r.mint, owner: r.owner, amount: BigInt(r.amount), slot: BigInt(r.slot) })),
        ).toEqual(Array.from({ length: count }, (_, i) => account(i, count)));
      }
    } finally {
      await h.close();
    }
  });

  it.skipIf(!available)('refuses a build whose parameters are not the rows in write order, and writes nothing', async () => {
    const h = await open();
    try {
      const swapped = precompiledRows<TokenAccountRow>({
        maxRows: 4,
        // owner before mint: the reverse of `write`
        build: (db, rows) =>
          db
            .insertInto('token_accounts')
            .values(
              rows.map((r) => ({ address: r.address, owner: r.owner, mint: r.mint, amount: r.amount, slot: r.slot, updated_at: 'now' })),
            ),
        marker: (i) => ({ address: `a${i}`, mint: `m${i}`, owner: `o${i}`, amount: BigInt(-2 * i - 1), slot: BigInt(-2 * i - 2) }),
        write: (r, parameters) => parameters.push(r.address, r.mint, r.owner, r.amount, r.slot),
      });
      await expect(swapped(h.db, [account(1, 1)])).rejects.toThrow(/not the rows in write order/);
      expect(await h.db.selectFrom('token_accounts').select('address').execute()).toEqual([]);
    } finally {
      await h.close();
    }
  });

  it.skipIf(!available)('refuses marker rows that repeat a value (a parameter could not be traced to its column)', async () => {
    const h = await open();
    try {
      const repeating = precompiledRows<TokenAccountRow>({
        maxRows: 4,
        build: (db, rows) =>
          db
            .insertInto('token_accounts')
            .values(
              rows.map((r) => ({ address: r.address, mint: r.mint, owner: r.owner, amount: r.amount, slot: r.slot, updated_at: 'now' })),
            ),
        // every row's mint is the same value: in write order, but not one-to-one
        marker: (i) => ({ address: `a${i}`, mint: 'm', owner: `o${i}`, amount: BigInt(-2 * i - 1), slot: BigInt(-2 * i - 2) }),
        write: (r, parameters) => parameters.push(r.address, r.mint, r.owner, r.amount, r.slot),
      });
      await expect(repeating(h.db, [account(1, 2), account(2, 2)])).rejects.toThrow(/not the rows in write order/);
      expect(await h.db.selectFrom('token_accounts').select('address').execute()).toEqual([]);
    } finally {
      await h.close();
    }
  });

  it.skipIf(!available)('exact sizes: orders of every column, one statement per 64 rows of exactly their count', async () => {
    const h = await open();
    try {
      const statements = vi.spyOn(h.db, 'executeQuery');
      let nonce = 0;
      for (const count of [1, 20, 64, 65]) {
        const rows = Array.from({ length: count }, (_, i) => ({
          id: `o-${count}-${i}`,
          market_id: `m${i % 3}`,
          owner: `w${i % 5}`,
          side: i % 2 === 0 ? ('buy' as const) : ('sell' as const),
          outcome: i % 3 === 0 ? ('no' as const) : ('yes' as const),
          price_bps: 100 + i,
          quantity: BigInt(1_000 + i),
          remaining: BigInt(500 + i),
          status: 'partially_filled' as const,
          order_type: 'limit' as const,
          time_in_force: 'gtc' as const,
          post_only: i % 2,
          nonce: String(++nonce),
          expiry: BigInt(2_000_000_000 + i),
          message: `msg${i}`,
          signature: `sig${i}`,
          seq: BigInt(i + 1),
          notional: BigInt(7 * i),
          usdc: BigInt(11 * i),
          committed: BigInt(13 * i),
          cancel_reason: i % 4 === 0 ? null : `why${i}`,
          created_at: `c${i}`,
          updated_at: `u${i}`,
        }));
        statements.mockClear();
        await insertOrders(h.db, rows);
        expect(statements).toHaveBeenCalledTimes(Math.ceil(count / 64));
        for (const row of rows) {
          const stored = await findOrder(h.db, row.id);
          expect({
            ...stored,
            price_bps: Number(stored!.price_bps),
            post_only: Number(stored!.post_only),
            ...Object.fromEntries(
              (['quantity', 'remaining', 'expiry', 'seq', 'notional', 'usdc', 'committed'] as const).map((k) => [k, BigInt(stored![k])]),
            ),
          }).toEqual(row);
        }
      }
    } finally {
      await h.close();
    }
  });
});
