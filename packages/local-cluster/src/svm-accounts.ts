/**
 * Conversions between LiteSVM's @solana/kit account shape and the runtime's own shape, plus the
 * read/write/compare helpers that snapshots, journaling and handlers share.
 */
import { PublicKey } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import type { RuntimeAccount } from './program-runtime.js';
import type { Account as NativeAccount } from 'litesvm/dist/internal.js';
import { keepWritten } from './kept-states.js';
import { addressText, nativeGet, nativeSet } from './svm-raw.js';

export const SYSTEM_PROGRAM = '11111111111111111111111111111111';

/** An account's state as the ledger stores, snapshots and journals it. */
export interface StoredAccount {
  owner: string;
  lamports: bigint;
  data: Uint8Array;
  executable: boolean;
}

export function readAccount(svm: LiteSVM, addr: string): StoredAccount | null {
  const acc = nativeGet(svm, addr);
  return acc ? storedAccount(acc) : null;
}

/** A native account as stored (its bytes copied out of LiteSVM); null for a purged one. */
export function storedAccount(acc: NativeAccount): StoredAccount | null {
  const lamports = acc.lamports();
  const data = acc.data();
  // LiteSVM keeps zero-lamport accounts around after a close; a real cluster purges them.
  if (lamports === 0n && data.length === 0) return null;
  return { owner: addressText(acc.owner()), lamports, data, executable: acc.executable() };
}

export function writeAccount(svm: LiteSVM, addr: string, acc: StoredAccount | null): void {
  const state = acc ?? { owner: SYSTEM_PROGRAM, lamports: 0n, data: new Uint8Array(0), executable: false };
  nativeSet(svm, addr, state.owner, state.lamports, state.data, state.executable);
  // What a read answers now, the data copied (the caller's may change). LiteSVM removes an account
  // set to zero lamports: that one is read again when asked for.
  if (state.lamports > 0n) {
    keepWritten(svm, addr, {
      owner: state.owner,
      lamports: state.lamports,
      data: new Uint8Array(state.data),
      executable: state.executable,
    });
  }
}

export function sameAccount(a: StoredAccount | null, b: StoredAccount | null): boolean {
  if (a === null || b === null || a === b) return a === b;
  return (
    a.lamports === b.lamports &&
    a.owner === b.owner &&
    a.executable === b.executable &&
    Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength).equals(b.data)
  );
}

export function toRuntimeAccount(acc: StoredAccount | null): RuntimeAccount | null {
  if (!acc) return null;
  return {
    owner: new PublicKey(acc.owner),
    lamports: acc.lamports,
    data: Buffer.from(acc.data),
    executable: acc.executable,
  };
}
