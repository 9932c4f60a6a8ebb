/**
 * The address → transaction index behind getSignaturesForAddress, keyed by an integer address id
 * (`addresses`, cached in memory) rather than the address's base58 text. Each transaction adds a
 * row per account key in the middle of the tree (at that address's end), so the index was a
 * third of the WAL pages of a group commit: `(address TEXT, seq)` fits about 70 rows in a 4 KiB
 * page, `(address_id, seq)` several hundred, so its leaves split far less often (issue 31).
 *
 * Ledgers written before (`address_signatures`, user_version 0) are migrated in one SQLite
 * transaction when opened: the same (address, seq) pairs, so every query answers the same.
 */
import type Database from 'better-sqlite3';
import { MultiRowInsert } from './sqlite-rows.js';

/** `PRAGMA user_version` of a ledger whose address index is keyed by id. */
export const ADDRESS_ID_SCHEMA = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS addresses (id INTEGER PRIMARY KEY, address TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS address_seqs (
  address_id INTEGER NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (address_id, seq)) WITHOUT ROWID;`;

/** Ids of at most this many addresses are kept in memory; past it the cache starts over. */
const CACHE_LIMIT = 100_000;

export class AddressIndex {
  private readonly ids = new Map<string, number>();
  /** Ids assigned in the SQLite transaction under way: forgotten if it rolls back. */
  private readonly fresh: string[] = [];
  private readonly rows: MultiRowInsert;
  private readonly stmts;

  constructor(private readonly db: Database.Database) {
    db.exec(SCHEMA);
    migrateTextIndex(db);
    this.rows = new MultiRowInsert(db, 'INSERT OR IGNORE INTO address_seqs (address_id, seq) VALUES', 2);
    this.stmts = {
      idOf: db.prepare('SELECT id FROM addresses WHERE address = ?').pluck(),
      insert: db.prepare('INSERT INTO addresses (address) VALUES (?)'),
    };
  }

  /** Inside the caller's SQLite transaction: appends a row (address id, seq) per distinct key to `rows`. */
  rowsFor(keys: readonly string[], seq: number, rows: unknown[]): void {
    for (const key of new Set(keys)) rows.push(this.idFor(key, true), seq);
  }

  /** Inside the same transaction: writes the rows `rowsFor` collected. */
  insert(rows: unknown[]): void {
    this.rows.run(rows);
  }

  /** Call after the caller's transaction committed. */
  committed(): void {
    this.fresh.length = 0;
  }

  /** Call after it rolled back: ids assigned in it do not exist. */
  rolledBack(): void {
    for (const address of this.fresh) this.ids.delete(address);
    this.fresh.length = 0;
  }

  /** The address's id, or null when it is in no recorded transaction. */
  find(address: string): number | null {
    return this.idFor(address, false);
  }

  private idFor(address: string, create: true): number;
  private idFor(address: string, create: false): number | null;
  private idFor(address: string, create: boolean): number | null {
    const known = this.ids.get(address);
    if (known !== undefined) return known;
    let id = this.stmts.idOf.get(address) as number | undefined;
    if (id === undefined) {
      if (!create) return null;
      id = Number(this.stmts.insert.run(address).lastInsertRowid);
      this.fresh.push(address);
    }
    if (this.ids.size >= CACHE_LIMIT && this.fresh.length === 0) this.ids.clear();
    this.ids.set(address, id);
    return id;
  }
}

/** Moves a text-keyed index (ledgers of user_version 0) to the id-keyed one, all or nothing. */
function migrateTextIndex(db: Database.Database): void {
  if ((db.pragma('user_version', { simple: true }) as number) >= ADDRESS_ID_SCHEMA) return;
  db.transaction(() => {
    const old = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'address_signatures'").get();
    if (old) {
      db.exec(`
        INSERT OR IGNORE INTO addresses (address) SELECT DISTINCT address FROM address_signatures ORDER BY address;
        INSERT OR IGNORE INTO address_seqs (address_id, seq)
          SELECT a.id, s.seq FROM address_signatures s JOIN addresses a ON a.address = s.address;
        DROP TABLE address_signatures;`);
    }
    db.pragma(`user_version = ${ADDRESS_ID_SCHEMA}`);
  })();
}
