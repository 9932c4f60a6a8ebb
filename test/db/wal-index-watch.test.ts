/**
 * The wal-index watch (db/wal-index-watch.ts) is what tells the kept answers of read-answers.ts
 * that a commit happened: it must be in use on a file database, move on every commit (main
 * connection, another connection, another process) and on nothing else that changes data, and
 * never close its descriptor while a connection of this process still has the file open (that
 * would drop SQLite's locks).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openSqlite } from '../../db/database.js';
import { readConnectionOf, walIndexWatchOf } from '../../db/read-connection.js';
import { upsertChainMarket } from '../../db/repositories/chain-markets.repository.js';
import { openWalIndexWatch } from '../../db/wal-index-watch.js';
import { chainMarketRow } from '../helpers/chain-market-rows.js';
import { sqliteDatabase, tempDir } from '../helpers/databases.js';

const openFds = () => fs.readdirSync('/proc/self/fd').length;

describe('the wal-index watch', () => {
  it('is what a file database reads its version with, and moves on every commit only', async () => {
    const h = await sqliteDatabase();
    const other = new SQLite(h.location);
    try {
      const watch = walIndexWatchOf(readConnectionOf(h.db)!)!;
      expect(watch).toBeDefined();
      watch.moved();
      expect(watch.moved()).toBe(false);
      await upsertChainMarket(h.db, chainMarketRow(1n, 1n)); // the main connection
      expect(watch.moved()).toBe(true);
      expect(watch.moved()).toBe(false);
      other.prepare(`update chain_markets set status = 'resolved' where market_id = 1`).run(); // another connection
      expect(watch.moved()).toBe(true);
      other.prepare('select * from chain_markets').all(); // a read commits nothing
      expect(watch.moved()).toBe(false);
      const script = `const D=require('better-sqlite3');const d=new D(process.argv[1]);d.prepare("update chain_markets set status='closed' where market_id=1").run();d.close()`;
      execFileSync(process.execPath, ['-e', script, h.location]); // another process
      expect(watch.moved()).toBe(true);
      expect(watch.moved()).toBe(false);
    } finally {
      other.close();
      await h.close();
    }
  });

  it('moves on a commit after a checkpoint restarted the WAL', async () => {
    const h = await sqliteDatabase();
    const other = new SQLite(h.location);
    try {
      const watch = walIndexWatchOf(readConnectionOf(h.db)!)!;
      await upsertChainMarket(h.db, chainMarketRow(1n, 1n));
      watch.moved();
      other.pragma('wal_checkpoint(TRUNCATE)');
      watch.moved(); // a checkpoint may move it (a spurious miss is allowed); it changes no data
      other.prepare(`update chain_markets set status = 'resolved' where market_id = 1`).run();
      expect(watch.moved()).toBe(true);
    } finally {
      other.close();
      await h.close();
    }
  });

  it('is not used on a database that is not in WAL mode', () => {
    const file = path.join(tempDir(), 'rollback.db');
    const main = new SQLite(file);
    main.exec('create table t (a)');
    const reader = new SQLite(file, { readonly: true });
    try {
      expect(openWalIndexWatch(reader, file)).toBeUndefined();
    } finally {
      reader.close();
      main.close();
    }
  });

  it('closes its descriptor with the database, and keeps it while another connection of this process has the file open', async () => {
    const before = openFds();
    const file = path.join(tempDir(), 'fds.db');
    const first = openSqlite(file);
    // Kysely opens (and so later closes) the main connection on first use; SQLite removes the
    // shm file on the last close only once the database has content.
    await sql`create table t (a)`.execute(first.db);
    await first.close();
    expect(openFds()).toBe(before);
    const second = openSqlite(file);
    await sql`insert into t values (1)`.execute(second.db);
    const other = new SQLite(file); // outlives the handle: its locks must survive the handle's close
    other.prepare('select * from t').all(); // now it maps the shm file and holds its lock
    await second.close();
    expect(fs.existsSync(`${file}-shm`)).toBe(true);
    other.exec('insert into t values (2)'); // still a working WAL connection
    expect(other.pragma('journal_mode', { simple: true })).toBe('wal');
    other.close();
    expect(openFds()).toBe(before + 1); // the kept descriptor, of a file now removed
  });
});
