/**
 * Direct access to LiteSVM's native binding. The public wrapper converts every address through
 * @solana/kit's base58 codec and re-encodes every transaction; on the ledger's hot path (a dozen
 * account reads per transaction) that conversion cost more than executing the transaction.
 * Here addresses are converted once and cached, and wire bytes go to the runtime untouched.
 */
import bs58 from 'bs58';
import type { LiteSVM } from 'litesvm';
import type {
  Account as NativeAccount,
  FailedTransactionMetadata,
  LiteSvm as NativeSvm,
  TransactionMetadata,
} from 'litesvm/dist/internal.js';
import { Account } from 'litesvm/dist/internal.js';
import { base58Encode } from './base58-encode.js';
import { noteWrite } from './kept-states.js';
import { isStaticWritable, readLegacyStaticKeys, readWireTransaction, type StaticKeys } from './wire-transaction.js';

const CACHE_LIMIT = 50_000;
const toBytes = new Map<string, Uint8Array>();
const toText = new Map<string, string>();

export function addressBytes(addr: string): Uint8Array {
  let b = toBytes.get(addr);
  if (!b) {
    b = bs58.decode(addr);
    if (b.length !== 32) throw new TypeError(`not a 32-byte address: ${addr}`);
    if (toBytes.size >= CACHE_LIMIT) toBytes.clear();
    toBytes.set(addr, b);
  }
  return b;
}

export function addressText(bytes: Uint8Array): string {
  const key = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let s = toText.get(key);
  if (!s) {
    s = base58Encode(bytes);
    if (toText.size >= CACHE_LIMIT) toText.clear();
    toText.set(key, s);
  }
  return s;
}

export function native(svm: LiteSVM): NativeSvm {
  return (svm as unknown as { inner: NativeSvm }).inner;
}

export function nativeGet(svm: LiteSVM, addr: string): NativeAccount | null {
  return native(svm).getAccount(addressBytes(addr));
}

/** An account's lamports alone (no copy of its data or owner), null when LiteSVM holds no such account. */
export function nativeBalance(svm: LiteSVM, addr: string): bigint | null {
  return native(svm).getBalance(addressBytes(addr));
}

export function nativeSet(svm: LiteSVM, addr: string, owner: string, lamports: bigint, data: Uint8Array, executable: boolean): void {
  native(svm).setAccount(addressBytes(addr), new Account(lamports, data, addressBytes(owner), executable, 0n));
  noteWrite(svm, [addr]);
}

/**
 * The accounts a message can have LiteSVM write: its writable static keys; null (any account)
 * when the bytes are not in the canonical form or load addresses from lookup tables.
 */
export function writableAccountsOf(raw: Uint8Array): string[] | null {
  let w: StaticKeys | null = readLegacyStaticKeys(raw);
  if (!w) {
    const full = readWireTransaction(raw);
    if (!full || full.lookups.length > 0) return null;
    w = full;
  }
  const out: string[] = [];
  for (let i = 0; i < w.staticKeys.length; i++) if (isStaticWritable(w, i)) out.push(addressText(w.staticKeys[i]!));
  return out;
}

/**
 * Executes signed wire bytes as they are (legacy or versioned), without re-encoding; with
 * `sigverify`, LiteSVM checks the signatures first (the ledger keeps it off otherwise).
 * `writable`: the accounts the message marks writable, when the caller has them (else read here).
 */
export function nativeSend(
  svm: LiteSVM,
  raw: Uint8Array,
  version: 'legacy' | 0,
  sigverify = false,
  writable: readonly string[] | null = writableAccountsOf(raw),
): TransactionMetadata | FailedTransactionMetadata {
  noteWrite(svm, writable); // synchronous: no reader runs between this and the writes
  const n = native(svm);
  if (!sigverify) return version === 'legacy' ? n.sendLegacyTransaction(raw) : n.sendVersionedTransaction(raw);
  n.setSigverify(true);
  try {
    return version === 'legacy' ? n.sendLegacyTransaction(raw) : n.sendVersionedTransaction(raw);
  } finally {
    n.setSigverify(false);
  }
}
