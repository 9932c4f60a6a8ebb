/**
 * The address index's rows, written after the answer (issue 31, send + confirm). A group commit
 * used to write every landed transaction's (address id, seq) rows with its record: one leaf per
 * account key per commit, a quarter of the WAL pages of a group of four transfers. The record
 * (the `transactions` row, which holds the account keys in its meta) is what makes a signature
 * durable; the index is derived from it. So the index rows of committed transactions wait here, in
 * memory, and are written in one SQLite transaction of their own a little later (every `delayMs`,
 * or at once past `maxPending`), together with the highest seq they cover (`address_indexed_seq`
 * in `meta`). getSignaturesForAddress answers the waiting tail from here and the rest from SQLite:
 * the same rows, in the same order, as when the index was written with the record.
 *
 * A kill -9 loses at most the waiting rows, never a record: at open, every transaction above the
 * indexed seq is indexed again from its meta (rows are INSERT OR IGNORE, so doing it twice is
 * harmless), before anything is answered.
 */
import type Database from 'better-sqlite3';
import type { AddressIndex } from './address-index.store.js';
import type { TransactionErr } from './tx-errors.js';

/** A committed transaction whose index rows are not written yet. */
export interface PendingEntry {
  seq: number;
  keys: readonly string[];
  signature: string;
  slot: number;
  blockTime: number;
  /** As stored in the `err` column (JSON text, or null): the answer parses it as the SQLite path does. */
  errText: string | null;
}

export interface AddressSignature {
  signature: string;
  slot: number;
  blockTime: number;
  err: TransactionErr | null;
  memo: null;
}

const WATERMARK = 'address_indexed_seq';

export class PendingAddressRows {
  private pending: PendingEntry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private readonly write: (entries: readonly PendingEntry[]) => void;
  private readonly stmts;

  constructor(
    private readonly db: Database.Database,
    private readonly index: AddressIndex,
    private readonly delayMs = 100,
    private readonly maxPending = 1024,
  ) {
    this.stmts = {
      getMeta: db.prepare('SELECT value FROM meta WHERE key = ?').pluck(),
      setMeta: db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
      since: db.prepare('SELECT seq, signature, slot, block_time, err, meta FROM transactions WHERE seq > ? ORDER BY seq'),
      maxSeq: db.prepare('SELECT MAX(seq) FROM transactions').pluck(),
    };
    this.write = db.transaction((entries: readonly PendingEntry[]) => {
      const rows: unknown[] = [];
      for (const e of entries) this.index.rowsFor(e.keys, e.seq, rows);
      this.index.insert(rows);
      this.stmts.setMeta.run(WATERMARK, String(entries[entries.length - 1]!.seq));
    });
    this.recover();
  }

  /** After the group commit that recorded them: their rows are written later. */
  add(entries: readonly PendingEntry[]): void {
    for (const e of entries) this.pending.push(e);
    if (this.pending.length >= this.maxPending) {
      // Not inside the commit's turn: its senders are answered first.
      this.immediate ??= setImmediate(() => this.flush());
    } else if (this.pending.length > 0) this.later();
  }

  private later(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.delayMs);
    this.timer.unref(); // what is waiting at exit is indexed again at the next open
  }

  /** Writes the waiting rows now (also on close). A failure keeps them waiting: they are still answered from here. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
    if (this.pending.length === 0) return;
    const entries = this.pending;
    try {
      this.write(entries);
    } catch {
      this.index.rolledBack();
      if (this.db.open) this.later(); // not at once: a failing write must not spin the event loop
      return;
    }
    this.index.committed();
    this.pending = this.pending.length === entries.length ? [] : this.pending.slice(entries.length);
  }

  /** The lowest seq still waiting (SQLite holds every indexed seq below it), or Infinity. */
  get firstSeq(): number {
    return this.pending.length > 0 ? this.pending[0]!.seq : Number.POSITIVE_INFINITY;
  }

  get size(): number {
    return this.pending.length;
  }

  /** Newest first: waiting transactions naming `address` with `until` < seq < `before`, at most `limit`. */
  newest(address: string, before: number, until: number, limit: number): AddressSignature[] {
    const out: AddressSignature[] = [];
    for (let i = this.pending.length - 1; i >= 0 && out.length < limit; i--) {
      const e = this.pending[i]!;
      if (e.seq >= before) continue;
      if (e.seq <= until) break;
      if (!e.keys.includes(address)) continue;
      const err = e.errText ? (JSON.parse(e.errText) as TransactionErr) : null;
      out.push({ signature: e.signature, slot: e.slot, blockTime: e.blockTime, err, memo: null });
    }
    return out;
  }

  /** At open: indexes every recorded transaction above the watermark (a ledger killed before its rows were written). */
  private recover(): void {
    const mark = this.stmts.getMeta.get(WATERMARK) as string | undefined;
    if (mark === undefined) {
      // Written before the rows were deferred: its index was written with each record, so it is complete.
      this.stmts.setMeta.run(WATERMARK, String((this.stmts.maxSeq.get() as number | null) ?? 0));
      return;
    }
    const rows = this.stmts.since.all(Number(mark)) as {
      seq: number;
      signature: string;
      slot: number;
      block_time: number;
      err: string | null;
      meta: string;
    }[];
    if (rows.length === 0) return;
    this.pending = rows.map((r) => ({
      seq: r.seq,
      keys: (JSON.parse(r.meta) as { accountKeys: string[] }).accountKeys,
      signature: r.signature,
      slot: r.slot,
      blockTime: r.block_time,
      errText: r.err,
    }));
    this.flush();
  }
}
