/**
 * Group commit of landed transactions. Each SQLite commit costs about as much as executing a
 * transfer, so the records of every transaction landed in one turn of the event loop are written
 * in one SQLite transaction, in landing order, at the end of the turn (setImmediate: after the
 * turn's I/O callbacks, which is when concurrent senders' transactions have landed). Nobody
 * hears of a transaction before its group is committed: its sender's promise, its events and
 * its signature status all wait for the commit, so what has been reported is exactly as
 * durable as when each transaction had its own commit (the same WAL, the same fsync policy).
 * Until then its signature is known here, so a duplicate is refused as already processed. Account
 * reads in the same turn already see its effects (as a node's `processed` state would): the
 * daemon's own indexes hear of them only through the events, after the commit.
 */
import type { StoredAccount } from './svm-accounts.js';
import type { TransactionRecord, TransactionRecordStore } from './transaction-record.store.js';

interface Pending {
  record: TransactionRecord;
  changed: Map<string, StoredAccount | null>;
  /** Runs right after the commit, in landing order (events); then the sender is answered. */
  committed: () => void;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class GroupCommit {
  private group: Pending[] = [];
  private readonly signatures = new Set<string>();
  private scheduled = false;

  constructor(private readonly store: TransactionRecordStore) {}

  /**
   * Queues a landed transaction's record; resolves once it is committed: with its turn's group
   * (`turn`), or now, with whatever waits before it (an in-process caller that sends one
   * transaction after another would otherwise give up the event loop after each).
   */
  add(record: TransactionRecord, changed: Map<string, StoredAccount | null>, turn: boolean, committed: () => void): Promise<void> {
    return new Promise((resolve, reject) => {
      this.group.push({ record, changed, committed, resolve, reject });
      this.signatures.add(record.signature);
      if (!turn) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** True while `signature` is landed but its group not yet committed. */
  has(signature: string): boolean {
    return this.signatures.has(signature);
  }

  get size(): number {
    return this.group.length;
  }

  /**
   * Commits the waiting group now. Called at the end of the turn, and before anything else
   * writes to the store or snapshots the state (the journal's order is the order of the writes).
   */
  flush(): void {
    this.scheduled = false;
    const group = this.group;
    if (group.length === 0) return;
    this.group = [];
    try {
      this.store.recordAll(group);
    } catch (err) {
      // As before group commit: a failed write fails the send (the state in memory has moved on).
      for (const p of group) this.signatures.delete(p.record.signature);
      for (const p of group) p.reject(err);
      return;
    }
    for (const p of group) this.signatures.delete(p.record.signature);
    for (const p of group) {
      try {
        p.committed();
        p.resolve();
      } catch (err) {
        p.reject(err); // recorded, but its follow-up failed (a snapshot): the sender hears it, as before
      }
    }
  }
}
