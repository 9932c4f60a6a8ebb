/**
 * The pre-transaction state of every account a transaction can touch: its account keys plus
 * anything a program handler reads-for-write, writes or invokes on. Restoring them all is how a
 * failed transaction changes nothing; comparing against them yields the post-state to journal.
 */
import type { LiteSVM } from 'litesvm';
import { sameAccount, storedAccount, writeAccount, type StoredAccount } from './svm-accounts.js';
import { nativeBalance, nativeGet } from './svm-raw.js';
import { keptStates } from './kept-states.js';

/**
 * Executable accounts (programs) per ledger, as last read. Every transaction lists its programs,
 * and copying a program's bytes out of LiteSVM (the ATA program: 105 KB, ~100 µs) twice per
 * transaction cost more than executing it. The runtime never lets a transaction change an
 * executable account's data (ExecutableDataModified), so one whose lamports and executability
 * are unchanged is the account last read; any other change reads it again.
 */
const programs = new WeakMap<LiteSVM, Map<string, StoredAccount>>();

/**
 * An account's current state, as the executor, handlers and the record builder read it: the state
 * kept since the account was last written (kept-states.ts), else read and kept. A transaction
 * reads its writable accounts after it executes, the next one reads them before it executes, and
 * its read-only ones (programs, mints) stay kept across transactions. States are shared, never
 * changed in place (the program cache below already shares them).
 */
export function readTouchedAccount(svm: LiteSVM, address: string): StoredAccount | null {
  const states = keptStates(svm);
  const known = states.get(address);
  if (known !== undefined || states.has(address)) return known ?? null;
  const now = readAccount(svm, address);
  states.set(address, now);
  return now;
}

function readAccount(svm: LiteSVM, address: string): StoredAccount | null {
  const acc = nativeGet(svm, address);
  if (!acc) return null;
  if (!acc.executable()) return storedAccount(acc);
  let known = programs.get(svm);
  if (!known) programs.set(svm, (known = new Map()));
  const last = known.get(address);
  if (last && last.lamports === acc.lamports()) return last;
  const now = storedAccount(acc);
  if (now) known.set(address, now);
  else known.delete(address);
  return now;
}

export class TouchedAccounts {
  private readonly pre = new Map<string, StoredAccount | null>();
  /** The states kept before the transaction ran (read since the last write before it). */
  private readonly before: Map<string, StoredAccount | null>;

  constructor(private readonly svm: LiteSVM) {
    this.before = keptStates(svm);
  }

  touch(address: string): void {
    if (!this.pre.has(address)) this.pre.set(address, readTouchedAccount(this.svm, address));
  }

  has(address: string): boolean {
    return this.pre.has(address);
  }

  preState(address: string): StoredAccount | null {
    return this.pre.get(address) ?? null;
  }

  /**
   * An account the transaction did not touch (a mint, for its decimals): the same before as
   * after, so a state kept from before it ran will do (the previous transaction's record read it).
   */
  untouchedState(address: string): StoredAccount | null {
    // Kept for the current version too, so the next transaction's record finds it as well.
    const now = keptStates(this.svm);
    if (!now.has(address) && this.before.has(address)) now.set(address, this.before.get(address) ?? null);
    return readTouchedAccount(this.svm, address);
  }

  restoreAll(): void {
    for (const [address, acc] of this.pre) {
      if (!sameAccount(readTouchedAccount(this.svm, address), acc)) writeAccount(this.svm, address, acc);
    }
  }

  /**
   * Post-state of every touched account that differs from its pre-state. `mayHaveChanged` skips
   * the ones that cannot have (a read-only account of a transaction the runtime executed alone).
   * `programsRun`: every program the runtime ran (instructions and CPIs), when it ran the
   * transaction alone. The runtime lets only an account's owner change its data, owner or
   * executability; an account whose owner did not run can only have had its lamports moved (the
   * fee, a credit from another program), so its post-state is its pre-state with LiteSVM's balance.
   */
  changed(mayHaveChanged?: (address: string) => boolean, programsRun?: ReadonlySet<string>): Map<string, StoredAccount | null> {
    const out = new Map<string, StoredAccount | null>();
    for (const [address, acc] of this.pre) {
      if (mayHaveChanged && !mayHaveChanged(address)) continue;
      const now =
        programsRun && acc && !acc.executable && !programsRun.has(acc.owner)
          ? this.withBalance(address, acc)
          : readTouchedAccount(this.svm, address);
      if (!sameAccount(now, acc)) out.set(address, now);
    }
    return out;
  }

  /**
   * `pre` with the lamports LiteSVM holds now, kept as the account's state (a fee payer: one
   * balance read instead of copying its owner and data out, ~8 µs a transaction). A balance of
   * zero (LiteSVM may have purged it) or a missing account is read in full.
   */
  private withBalance(address: string, pre: StoredAccount): StoredAccount | null {
    const states = keptStates(this.svm);
    if (states.has(address)) return states.get(address) ?? null;
    const lamports = nativeBalance(this.svm, address);
    if (lamports === null || lamports === 0n) return readTouchedAccount(this.svm, address);
    const now = lamports === pre.lamports ? pre : { ...pre, lamports };
    states.set(address, now);
    return now;
  }
}
