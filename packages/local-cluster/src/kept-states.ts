/**
 * The account states read since each address was last written (issue 31, fourteenth pass).
 *
 * The twelfth pass kept the states read since the ledger's last write of any account, and dropped
 * them all at the next write: every transaction dropped them, so each one read its read-only
 * accounts again, and a program's bytes (the token program's ~130 KB) were cloned out of LiteSVM
 * for every transfer and, after a handler's writes, for every settle's post-state comparison.
 * Most writes say which accounts they can change: setting an account changes that one, and a
 * transaction LiteSVM executes changes only the accounts its message marks writable (LiteSVM
 * writes back the loaded accounts the sanitized message marks writable, a subset of those). Those
 * writes drop only their addresses' states. Any other write (the sysvars each slot, a message
 * whose writable accounts are not known) changes the account write version (write-version.ts)
 * without going through here, and drops them all at the next read.
 */
import type { LiteSVM } from 'litesvm';
import type { StoredAccount } from './svm-accounts.js';
import { accountWriteVersion, noteAccountWrite } from './write-version.js';

/** Past this many states kept, they are dropped (only the recent ones pay off). */
const KEPT_LIMIT = 4096;

interface Kept {
  /** The account write version the states are current for. */
  version: number;
  states: Map<string, StoredAccount | null>;
}

const kept = new WeakMap<LiteSVM, Kept>();

/** The states kept for `svm` that are current now (a fresh map after any write not scoped here). */
export function keptStates(svm: LiteSVM): Map<string, StoredAccount | null> {
  const version = accountWriteVersion(svm);
  let k = kept.get(svm);
  if (k?.version !== version) kept.set(svm, (k = { version, states: new Map() }));
  else if (k.states.size > KEPT_LIMIT) k.states.clear();
  return k.states;
}

/**
 * Notes a write to `svm` (the account write version changes) that can change only `addresses`,
 * or any account when null. Called, synchronously, around the write itself.
 */
export function noteWrite(svm: LiteSVM, addresses: Iterable<string> | null): void {
  const k = kept.get(svm);
  const current = k !== undefined && k.version === accountWriteVersion(svm);
  noteAccountWrite(svm);
  if (!k) return;
  if (!current || addresses === null) {
    kept.delete(svm);
    return;
  }
  for (const address of addresses) k.states.delete(address);
  k.version = accountWriteVersion(svm);
}

/**
 * Keeps the state an account was just set to (after `noteWrite` for it): LiteSVM answers what it
 * was given, so reading it back (the post-state comparison after a handler's writes) needs no
 * copy out of the runtime. The caller passes a state it will not change.
 */
export function keepWritten(svm: LiteSVM, address: string, state: StoredAccount | null): void {
  const k = kept.get(svm);
  if (k !== undefined && k.version === accountWriteVersion(svm)) k.states.set(address, state);
}
