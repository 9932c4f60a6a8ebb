/**
 * rebuildableTransaction (db/database.ts): commits without waiting for the disk only for its own
 * transaction. SQLite: synchronous is NORMAL inside and FULL again after (also after a throw), and
 * no other query runs on the connection meanwhile; PostgreSQL: committed like any transaction.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildableTransaction, type DatabaseHandle } from '../../db/database.js';
import { DIALECTS, sqliteDatabase } from '../helpers/databases.js';

for (const { name, available, open } of DIALECTS)
  describe.skipIf(!available)(`rebuildableTransaction on ${name}`, () => {
    let db: DatabaseHandle;
    beforeAll(async () => {
      db = await open();
    });
    afterAll(async () => {
      await db?.close();
    });

    const row = (address: string) => ({ address, mint: 'm', owner: 'o', amount: 1n, slot: 1n, updated_at: 'now' });
    it('commits its writes, and rolls them back on a throw', async () => {
      await rebuildableTransaction(db.db, (trx) => trx.insertInto('token_accounts').values(row('rb-1')).execute());
      await expect(
        rebuildableTransaction(db.db, async (trx) => {
          await trx.insertInto('token_accounts').values(row('rb-2')).execute();
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      const ids = (await db.db.selectFrom('token_accounts').select('address').where('address', 'like', 'rb-%').execute()).map(
        (r) => r.address,
      );
      expect(ids).toEqual(['rb-1']);
    });
  });

describe('rebuildableTransaction on SQLite', () => {
  let db: DatabaseHandle;
  beforeAll(async () => {
    db = await sqliteDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  const synchronous = async () =>
    Number((await sql<{ synchronous: number | bigint }>`pragma synchronous`.execute(db.db)).rows[0]?.synchronous);

  it('NORMAL for its own commit only, FULL around it, nothing interleaved', async () => {
    expect(await synchronous()).toBe(2);
    let inside = -1;
    // Another query, issued while the transaction holds the connection: it must run at FULL.
    const other = (async () => {
      await new Promise((r) => setImmediate(r));
      return synchronous();
    })();
    await rebuildableTransaction(db.db, async (trx) => {
      inside = Number((await sql<{ synchronous: number | bigint }>`pragma synchronous`.execute(trx)).rows[0]?.synchronous);
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(inside).toBe(1);
    expect(await other).toBe(2);
    expect(await synchronous()).toBe(2);
    await rebuildableTransaction(db.db, async () => {
      throw new Error('boom');
    }).catch(() => undefined);
    expect(await synchronous()).toBe(2);
  });
});
