/**
 * The SQLite driver's prepared-statement cache (db/database.ts): one compile per SQL text, bounded
 * and least-recently-used first out, safe with a statement still being iterated and across
 * schema changes, and transparent to Kysely queries.
 */
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type Generated } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from '../../db/database.js';

describe('withStatementCache', () => {
  const opened: SQLite.Database[] = [];
  function open() {
    const raw = new SQLite(':memory:');
    opened.push(raw);
    raw.exec('create table t (id integer primary key, name text)');
    raw.exec("insert into t (name) values ('a'), ('b'), ('c')");
    return raw;
  }
  afterEach(() => {
    for (const db of opened.splice(0)) if (db.open) db.close();
  });

  it('prepares each SQL text once and hands the same statement back', () => {
    const raw = open();
    const cached = withStatementCache(raw);
    const first = cached.prepare('select name from t where id = ?');
    expect(cached.prepare('select name from t where id = ?')).toBe(first);
    expect(first.all([2])).toEqual([{ name: 'b' }]);
    expect(cached.prepare('select name from t where id = ?').all([3])).toEqual([{ name: 'c' }]);
    expect(cached.cachedStatements()).toBe(1);
  });

  it('keeps at most `limit` statements, dropping the least recently used', () => {
    const cached = withStatementCache(open(), 3);
    const a = cached.prepare('select 1');
    cached.prepare('select 2');
    cached.prepare('select 3');
    expect(cached.prepare('select 1')).toBe(a); // now the most recent
    cached.prepare('select 4'); // evicts 'select 2', the least recent
    expect(cached.cachedStatements()).toBe(3);
    expect(cached.prepare('select 1')).toBe(a);
    const two = cached.prepare('select 2');
    expect(cached.prepare('select 2')).toBe(two);
  });

  it('gives a fresh statement while the cached one is still being iterated', () => {
    const cached = withStatementCache(open());
    const text = 'select name from t order by id';
    const iterating = cached.prepare(text);
    const rows = iterating.iterate([]);
    expect(rows.next().value).toEqual({ name: 'a' });
    const other = cached.prepare(text);
    expect(other).not.toBe(iterating);
    expect(other.all([])).toHaveLength(3);
    expect([...rows]).toEqual([{ name: 'b' }, { name: 'c' }]);
  });

  it('sees schema changes made after a statement was cached', () => {
    const raw = open();
    const cached = withStatementCache(raw);
    expect(cached.prepare('select * from t where id = 1').all([])).toEqual([{ id: 1, name: 'a' }]);
    raw.exec("alter table t add column note text default 'n'");
    expect(cached.prepare('select * from t where id = 1').all([])).toEqual([{ id: 1, name: 'a', note: 'n' }]);
  });

  it('serves Kysely: repeated queries reuse one statement, results unchanged', async () => {
    const cached = withStatementCache(open());
    const db = new Kysely<{ t: { id: Generated<number>; name: string } }>({ dialect: new SqliteDialect({ database: cached }) });
    for (let id = 1; id <= 3; id++) {
      const row = await db.selectFrom('t').select('name').where('id', '=', id).executeTakeFirst();
      expect(row?.name).toBe(['a', 'b', 'c'][id - 1]);
    }
    await db.insertInto('t').values({ name: 'd' }).execute();
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ name: 'e' }).execute();
    });
    const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(db);
    expect(rows[0]?.n).toBe(5);
    // select, insert, begin, commit, count: one statement each.
    expect(cached.cachedStatements()).toBe(5);
    await db.destroy();
  });
});
