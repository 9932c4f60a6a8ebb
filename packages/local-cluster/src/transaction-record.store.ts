/**
 * The ledger's durable record, in one SQLite file (WAL): every landed transaction with its meta,
 * and the account journal: the post-state of every account each transaction changed, written in
 * the same SQLite transaction as its record, before the signature is reported (group-commit.ts
 * commits every transaction landed in one event-loop turn together, then answers them). With
 * synchronous=NORMAL a committed WAL frame survives kill -9 (it is in the OS page cache); only a
 * power loss can drop the last few. The address → signature index behind getSignaturesForAddress
 * is derived from the records and written a little after them (address-index.pending.ts).
 */
import Database from 'better-sqlite3';
import { PendingAddressRows, type AddressSignature, type PendingEntry } from './address-index.pending.js';
import { AddressIndex } from './address-index.store.js';
import { MultiRowInsert } from './sqlite-rows.js';
import { metaJson, parseMeta, type RecordMeta } from './transaction-meta.js';
import type { StoredAccount } from './svm-accounts.js';
import type { TransactionErr } from './tx-errors.js';

/** A recorded transaction: its row's own columns, and the rest kept in its meta (transaction-meta.ts). */
export interface TransactionRecord extends RecordMeta {
  signature: string;
  slot: number;
  blockTime: number;
  raw: Uint8Array;
  err: TransactionErr | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS transactions (
  seq INTEGER PRIMARY KEY, signature TEXT NOT NULL UNIQUE, slot INTEGER NOT NULL,
  block_time INTEGER NOT NULL, raw BLOB NOT NULL, err TEXT, meta TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS account_journal (
  jseq INTEGER PRIMARY KEY AUTOINCREMENT, address TEXT NOT NULL, owner TEXT, lamports TEXT,
  executable INTEGER, data BLOB);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`;

export type RecordEntry = { record: TransactionRecord; changed: Map<string, StoredAccount | null> };

/** A journal row's values: the account's post-state, or nulls for an account that is gone (the data is bound as a view: SQLite copies it). */
function journalRow(address: string, acc: StoredAccount | null): unknown[] {
  return [
    address,
    acc?.owner ?? null,
    acc ? acc.lamports.toString() : null,
    acc?.executable ? 1 : 0,
    acc ? Buffer.from(acc.data.buffer, acc.data.byteOffset, acc.data.byteLength) : null,
  ];
}

export class TransactionRecordStore {
  readonly db: Database.Database;
  private readonly stmts;
  private readonly addresses: AddressIndex;
  /** Index rows of committed transactions, written after their answers (address-index.pending.ts). */
  private readonly unindexed: PendingAddressRows;
  private readonly journalRows: MultiRowInsert;
  private readonly recordRows: MultiRowInsert;
  private readonly recordGroup: (entries: readonly RecordEntry[]) => PendingEntry[];

  constructor(
    path: string,
    private readonly journaling: boolean,
  ) {
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(SCHEMA);
    this.stmts = {
      has: this.db.prepare('SELECT 1 FROM transactions WHERE signature = ?').pluck(),
      get: this.db.prepare('SELECT * FROM transactions WHERE signature = ?'),
      status: this.db.prepare('SELECT slot, err FROM transactions WHERE signature = ?'),
      getMeta: this.db.prepare('SELECT value FROM meta WHERE key = ?').pluck(),
      setMeta: this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
      maxSlot: this.db.prepare('SELECT MAX(slot) FROM transactions').pluck(),
      maxJseq: this.db.prepare('SELECT MAX(jseq) FROM account_journal').pluck(),
    };
    this.addresses = new AddressIndex(this.db);
    this.unindexed = new PendingAddressRows(this.db, this.addresses);
    this.journalRows = new MultiRowInsert(this.db, 'INSERT INTO account_journal (address, owner, lamports, executable, data) VALUES', 5);
    this.recordRows = new MultiRowInsert(this.db, 'INSERT INTO transactions (signature, slot, block_time, raw, err, meta) VALUES', 6);
    // Made once: better-sqlite3 builds a wrapper per db.transaction() call.
    this.recordGroup = this.db.transaction((entries: readonly RecordEntry[]) => {
      const landed: PendingEntry[] = [];
      // Each account's last post-state in the group only: the group commits or not as a whole, so
      // no reopen can see a state between two of its transactions, and replay (one account at a
      // time, in jseq order) ends at the last one either way. A sender's fee payer and token
      // accounts repeat within a turn: four transfers between the same accounts wrote 12 rows, now 3.
      const last = new Map<string, StoredAccount | null>();
      const rows: unknown[] = [];
      for (const e of entries) {
        const rec = e.record;
        const errText = rec.err === null ? null : JSON.stringify(rec.err);
        const raw = Buffer.from(rec.raw.buffer, rec.raw.byteOffset, rec.raw.byteLength);
        rows.push(rec.signature, rec.slot, rec.blockTime, raw, errText, metaJson(rec));
        landed.push({ seq: 0, keys: rec.accountKeys, signature: rec.signature, slot: rec.slot, blockTime: rec.blockTime, errText });
        if (this.journaling) for (const [address, acc] of e.changed) last.set(address, acc);
      }
      // One statement for the group's records (as for its journal rows): the seqs are consecutive, ending at the last.
      const first = this.recordRows.run(rows) - entries.length + 1;
      landed.forEach((l, i) => (l.seq = first + i));
      this.journalAccounts(last);
      return landed;
    });
  }

  /**
   * Records landed transactions and journals the accounts they changed, all in one SQLite
   * transaction (group commit: one commit for every transaction landed in a turn), in order.
   */
  readonly recordAll = (entries: readonly RecordEntry[]): void => {
    this.unindexed.add(this.recordGroup(entries));
  };

  /** Writes the address index's waiting rows now (tests; close does it too). */
  flushAddressIndex(): void {
    this.unindexed.flush();
  }

  /** Journals account states written outside a transaction (bootstrap funding, the internal payer). */
  journalAccounts(changed: Map<string, StoredAccount | null>): void {
    if (!this.journaling) return;
    const journal: unknown[] = [];
    for (const [address, acc] of changed) journal.push(...journalRow(address, acc));
    this.journalRows.run(journal);
  }

  has(signature: string): boolean {
    return this.stmts.has.get(signature) !== undefined;
  }

  get(signature: string): TransactionRecord | null {
    const row = this.stmts.get.get(signature) as
      { signature: string; slot: number; block_time: number; raw: Buffer; err: string | null; meta: string } | undefined;
    return row ? rowToRecord(row) : null;
  }

  /** Slot and err of a recorded transaction, without reading and parsing its meta (getSignatureStatuses). */
  status(signature: string): { slot: number; err: TransactionErr | null } | null {
    const row = this.stmts.status.get(signature) as { slot: number; err: string | null } | undefined;
    return row ? { slot: row.slot, err: row.err ? (JSON.parse(row.err) as TransactionErr) : null } : null;
  }

  /** Signature, slot and err of every transaction recorded at `slot` or later, in recording order. */
  recordedSince(slot: number): { signature: string; slot: number; err: TransactionErr | null }[] {
    const out = [];
    // Newest first, stopping at the first older slot: seq order is slot order, and there is no slot index.
    for (const row of this.db.prepare('SELECT signature, slot, err FROM transactions ORDER BY seq DESC').iterate() as Iterable<{
      signature: string;
      slot: number;
      err: string | null;
    }>) {
      if (row.slot < slot) break;
      out.push({ signature: row.signature, slot: row.slot, err: row.err ? (JSON.parse(row.err) as TransactionErr) : null });
    }
    return out.reverse();
  }

  signaturesForAddress(address: string, opts: { limit: number; before?: string; until?: string }): AddressSignature[] {
    const seqOf = (sig?: string): number | null =>
      sig ? ((this.db.prepare('SELECT seq FROM transactions WHERE signature = ?').pluck().get(sig) as number | undefined) ?? null) : null;
    const before = seqOf(opts.before) ?? Number.MAX_SAFE_INTEGER;
    const until = seqOf(opts.until) ?? 0;
    // The newest, not indexed yet, from memory; then the index, below them.
    const tail = this.unindexed.newest(address, before, until, opts.limit);
    if (tail.length >= opts.limit) return tail;
    const id = this.addresses.find(address);
    if (id === null) return tail;
    const rows = this.db
      .prepare(
        `SELECT t.signature, t.slot, t.block_time, t.err FROM address_seqs a JOIN transactions t ON t.seq = a.seq
                WHERE a.address_id = ? AND a.seq < ? AND a.seq > ? ORDER BY a.seq DESC LIMIT ?`,
      )
      .all(id, Math.min(before, this.unindexed.firstSeq), until, opts.limit - tail.length) as {
      signature: string;
      slot: number;
      block_time: number;
      err: string | null;
    }[];
    return tail.concat(
      rows.map((r) => ({
        signature: r.signature,
        slot: r.slot,
        blockTime: r.block_time,
        err: r.err ? (JSON.parse(r.err) as TransactionErr) : null,
        memo: null as null,
      })),
    );
  }

  journalSince(jseq: number): { jseq: number; address: string; account: StoredAccount | null }[] {
    const rows = this.db.prepare('SELECT * FROM account_journal WHERE jseq > ? ORDER BY jseq').all(jseq) as {
      jseq: number;
      address: string;
      owner: string | null;
      lamports: string | null;
      executable: number;
      data: Buffer | null;
    }[];
    return rows.map((r) => ({
      jseq: r.jseq,
      address: r.address,
      account:
        r.owner === null
          ? null
          : {
              owner: r.owner,
              lamports: BigInt(r.lamports ?? '0'),
              executable: r.executable === 1,
              data: new Uint8Array(r.data ?? Buffer.alloc(0)),
            },
    }));
  }

  lastJseq(): number {
    return (this.stmts.maxJseq.get() as number | null) ?? 0;
  }

  pruneJournal(uptoJseq: number): void {
    this.db.prepare('DELETE FROM account_journal WHERE jseq <= ?').run(uptoJseq);
  }

  transactionCount(): number {
    return (this.db.prepare('SELECT MAX(seq) FROM transactions').pluck().get() as number | null) ?? 0;
  }

  maxSlot(): number {
    return (this.stmts.maxSlot.get() as number | null) ?? 0;
  }

  getMeta(key: string): string | undefined {
    return this.stmts.getMeta.get(key) as string | undefined;
  }

  setMeta(key: string, value: string): void {
    this.stmts.setMeta.run(key, value);
  }

  close(): void {
    this.unindexed.flush();
    this.db.close();
  }
}

function rowToRecord(row: {
  signature: string;
  slot: number;
  block_time: number;
  raw: Buffer;
  err: string | null;
  meta: string;
}): TransactionRecord {
  return {
    signature: row.signature,
    slot: row.slot,
    blockTime: row.block_time,
    raw: new Uint8Array(row.raw),
    err: row.err ? (JSON.parse(row.err) as TransactionErr) : null,
    ...parseMeta(row.meta),
  };
}
