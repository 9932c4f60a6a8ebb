/**
 * The read-only connection's kept answers (db/read-answers.ts) are exact: a commit by the main
 * connection, by a second connection in this process or by another process is seen by the very
 * next read, and while nothing commits a repeated read is served without running its statement.
 */
import { execFileSync } from 'node:child_process';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { readAnswer } from '../../db/read-answers.js';
import { readConnectionOf } from '../../db/read-connection.js';
import { findChainMarket, upsertChainMarket } from '../../db/repositories/chain-markets.repository.js';
import { balancesByOwner, upsertTokenAccounts } from '../../db/repositories/token-accounts.repository.js';
import { chainMarketRow } from '../helpers/chain-market-rows.js';
import { sqliteDatabase } from '../helpers/databases.js';

const market = chainMarketRow;

describe('answers kept by data_version on the read-only connection', () => {
  it('a commit by the main connection is seen by the next read', async () => {
    const h = await sqliteDatabase();
    try {
      await upsertChainMarket(h.db, market(1n, 10n));
      expect((await findChainMarket(h.db, 1n))?.status).toBe('active');
      expect((await findChainMarket(h.db, 1n))?.status).toBe('active'); // kept
      await upsertChainMarket(h.db, market(1n, 11n, 'resolved'));
      expect(await findChainMarket(h.db, 1n)).toMatchObject({ status: 'resolved', slot: 11n });
      await upsertTokenAccounts(h.db, [{ address: 'a1', owner: 'w', mint: 'm', amount: 5n, slot: 1n }]);
      expect(await balancesByOwner(h.db, 'w')).toEqual(new Map([['m', 5n]]));
      await upsertTokenAccounts(h.db, [{ address: 'a1', owner: 'w', mint: 'm', amount: 0n, slot: 2n }]);
      expect(await balancesByOwner(h.db, 'w')).toEqual(new Map());
    } finally {
      await h.close();
    }
  });

  it('a commit by another connection to the file is seen by the next read', async () => {
    const h = await sqliteDatabase();
    const other = new SQLite(h.location);
    try {
      await upsertChainMarket(h.db, market(1n, 10n));
      expect((await findChainMarket(h.db, 1n))?.status).toBe('active');
      other.prepare(`update chain_markets set status = 'resolved' where market_id = 1`).run();
      expect((await findChainMarket(h.db, 1n))?.status).toBe('resolved');
      other.prepare(`delete from chain_markets where market_id = 1`).run();
      expect(await findChainMarket(h.db, 1n)).toBeUndefined();
    } finally {
      other.close();
      await h.close();
    }
  });

  it('a commit by another process is seen by the next read', async () => {
    const h = await sqliteDatabase();
    try {
      await upsertChainMarket(h.db, market(1n, 10n));
      expect((await findChainMarket(h.db, 1n))?.status).toBe('active');
      const script = `const D=require('better-sqlite3');const d=new D(process.argv[1]);d.prepare("update chain_markets set status='closed' where market_id=1").run();d.close()`;
      execFileSync(process.execPath, ['-e', script, h.location]);
      expect((await findChainMarket(h.db, 1n))?.status).toBe('closed');
    } finally {
      await h.close();
    }
  });

  it('runs the statement again only after a commit, and hands each caller its own rows', async () => {
    const h = await sqliteDatabase();
    try {
      await upsertChainMarket(h.db, market(1n, 10n));
      const reader = readConnectionOf(h.db)!;
      const real = reader.prepare('select market_id, status from chain_markets where market_id = ?');
      let runs = 0;
      const counted = { all: (p: unknown[]) => (runs++, real.all(p)) } as unknown as SQLite.Statement;
      const query = {};
      const first = readAnswer<{ status: string }>(reader, query, counted, [1n]);
      first[0]!.status = 'changed by a caller';
      expect(readAnswer<{ status: string }>(reader, query, counted, [1n])[0]!.status).toBe('active');
      expect(runs).toBe(1);
      readAnswer(reader, query, counted, [2n]); // another key: its own run
      expect(runs).toBe(2);
      await upsertChainMarket(h.db, market(1n, 11n, 'resolved'));
      expect(readAnswer<{ status: string }>(reader, query, counted, [1n])[0]!.status).toBe('resolved');
      expect(runs).toBe(3);
    } finally {
      await h.close();
    }
  });

  it('keeps values that print alike apart: null and the text null, 1n and 1, bytes that are not UTF-8', async () => {
    const h = await sqliteDatabase();
    try {
      const reader = readConnectionOf(h.db)!;
      const echo = reader.prepare('select typeof(?) as t');
      const query = {};
      const typeOf = (value: unknown) => readAnswer<{ t: string }>(reader, query, echo, [value])[0]!.t;
      expect([typeOf(null), typeOf('null'), typeOf(1n), typeOf('1')]).toEqual(['null', 'text', 'integer', 'text']);
      const hexOf = reader.prepare('select hex(?) as t');
      const bytes = (b: number) => readAnswer<{ t: string }>(reader, hexOf, hexOf, [Buffer.from([b])])[0]!.t;
      expect([bytes(0xff), bytes(0xfe)]).toEqual(['FF', 'FE']);
    } finally {
      await h.close();
    }
  });
});
