/**
 * The signatures (with slot and err) of every transaction committed in the last
 * MAX_PROCESSING_AGE + 1 slots, in memory. A transaction can only land while its blockhash is
 * valid, and a blockhash produced at height h lands transactions at slots ≥ h; so a transaction
 * whose blockhash is still valid now was, if ever, landed within this window: the duplicate check
 * of every send that can land asks this map, not SQLite (an expired blockhash still asks the
 * store, to answer AlreadyProcessed rather than BlockhashNotFound as before). The statuses a
 * client polls right after sending are answered from here too. Each of the two SQLite lookups
 * cost ~2 % of the daemon's CPU on the send + confirm row (issue 31). The window is rebuilt from
 * the store at open (blockhashes from before a restart stay valid).
 */
import { MAX_PROCESSING_AGE } from './ledger-clock.js';
import type { TransactionRecordStore } from './transaction-record.store.js';
import type { TransactionErr } from './tx-errors.js';

export interface RecentStatus {
  slot: number;
  err: TransactionErr | null;
}

export class RecentSignatures {
  /** In commit order, so slots never decrease from the front to the back. */
  private readonly bySignature = new Map<string, RecentStatus>();

  constructor(store: TransactionRecordStore, currentSlot: number) {
    for (const row of store.recordedSince(this.oldestKept(currentSlot))) this.bySignature.set(row.signature, row);
  }

  /** Called once a transaction's record is committed. */
  add(signature: string, slot: number, err: TransactionErr | null): void {
    this.bySignature.set(signature, { slot, err });
  }

  has(signature: string): boolean {
    return this.bySignature.has(signature);
  }

  get(signature: string): RecentStatus | undefined {
    return this.bySignature.get(signature);
  }

  /** Forgets what landed before the window (called as slots advance). */
  prune(currentSlot: number): void {
    const oldest = this.oldestKept(currentSlot);
    for (const [signature, status] of this.bySignature) {
      if (status.slot >= oldest) break;
      this.bySignature.delete(signature);
    }
  }

  /** One slot of margin beyond the oldest valid blockhash's height. */
  private oldestKept(currentSlot: number): number {
    return currentSlot - MAX_PROCESSING_AGE - 1;
  }
}
