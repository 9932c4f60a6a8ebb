/**
 * The pre-transaction state of every account a transaction can touch: its account keys plus
 * anything a program handler reads-for-write, writes or invokes on. Restoring them all is how a
 * failed transaction changes nothing; comparing against them yields the post-state to journal.
 */
import type { LiteSVM } from 'litesvm';
import { readAccount, sameAccount, writeAccount, type StoredAccount } from './svm-accounts.js';

export class TouchedAccounts {
  private readonly pre = new Map<string, StoredAccount | null>();

  constructor(private readonly svm: LiteSVM) {}

  touch(address: string): void {
    if (!this.pre.has(address)) this.pre.set(address, readAccount(this.svm, address));
  }

  has(address: string): boolean {
    return this.pre.has(address);
  }

  preState(address: string): StoredAccount | null {
    return this.pre.get(address) ?? null;
  }

  restoreAll(): void {
    for (const [address, acc] of this.pre) {
      if (!sameAccount(readAccount(this.svm, address), acc)) writeAccount(this.svm, address, acc);
    }
  }

  /** Post-state of every touched account that differs from its pre-state. */
  changed(): Map<string, StoredAccount | null> {
    const out = new Map<string, StoredAccount | null>();
    for (const [address, acc] of this.pre) {
      const now = readAccount(this.svm, address);
      if (!sameAccount(now, acc)) out.set(address, now);
    }
    return out;
  }
}
