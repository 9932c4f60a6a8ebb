/**
 * The ledger's account write version (issue 31): a number that changes whenever any account in a
 * LiteSVM instance may have changed, read synchronously by in-process readers that keep answers
 * made from account bytes (the daemon's GET /v2/config and quote). svm-raw.ts notes every write
 * at the only places bytes reach LiteSVM (setting an account, executing a transaction) and
 * runtime-sysvars.ts notes the Clock and SlotHashes it writes each slot, so no account changes
 * without the version changing: a value read before an account read is never newer than it.
 *
 * The version may also change with nothing visible changed (a simulation writes and restores);
 * that only drops a kept answer early. Values come from one process-wide counter, so a state
 * opened afresh (a restart, a second ledger) never shows a value an earlier state showed.
 */
import type { LiteSVM } from 'litesvm';

let last = 0;
const versions = new WeakMap<LiteSVM, number>();

/** Called after (or, in synchronous code, around) every write to `svm`'s accounts. */
export function noteAccountWrite(svm: LiteSVM): void {
  versions.set(svm, ++last);
}

/** `svm`'s current write version; a state never written since it was opened gets a fresh one. */
export function accountWriteVersion(svm: LiteSVM): number {
  let version = versions.get(svm);
  if (version === undefined) versions.set(svm, (version = ++last));
  return version;
}
