/**
 * A submitted transaction, decoded once from its wire bytes (legacy or v0 message) into what the
 * ledger needs: signatures, message bytes to verify, static keys with signer/writable flags and
 * compiled instructions. A v0 message's address-table lookups are resolved through `resolveTable`
 * (the ledger reads the Address Lookup Table program's accounts), appending the loaded writable
 * then read-only addresses after the static keys, exactly as the runtime orders them.
 */
import { PACKET_DATA_SIZE } from '@pmx/programs';
import { VersionedTransaction } from '@solana/web3.js';
import { base58Encode } from './base58-encode.js';
import { LedgerError } from './ledger-error.js';
import { verifyEd25519 } from './signature-verifier.js';
import { addressText } from './svm-raw.js';
import { isStaticWritable, readWireTransaction, type WireTransaction } from './wire-transaction.js';

export interface CompiledIx {
  programIndex: number;
  accounts: number[];
  data: Uint8Array;
}

export interface ParsedTransaction {
  raw: Uint8Array;
  signature: string;
  messageBytes: Uint8Array;
  version: 'legacy' | 0;
  accountKeys: string[];
  numSigners: number;
  writable: boolean[];
  instructions: CompiledIx[];
  recentBlockhash: string;
  /** Every signature, and the key that must have made it (the first `numSigners` static keys). */
  signatures: Uint8Array[];
  signerKeys: Uint8Array[];
  /**
   * True when the wire bytes are in the canonical form (wire-transaction.ts): the runtime then
   * verifies exactly the message bytes we would, so its signature check can stand for ours.
   */
  canonical: boolean;
}

/** The addresses a lookup table (base58) can serve now, or null when it does not exist or is deactivated. */
export type LookupTableResolver = (table: string) => readonly string[] | null;

export function parseTransaction(raw: Uint8Array, resolveTable?: LookupTableResolver): ParsedTransaction {
  if (raw.length > PACKET_DATA_SIZE)
    throw new LedgerError('invalid', `transaction too large: ${raw.length} bytes (max ${PACKET_DATA_SIZE})`);
  const wire = readWireTransaction(raw);
  return wire ? fromWire(raw, wire, resolveTable) : fromWeb3(raw, resolveTable);
}

/** The canonical form, read from the bytes (the same fields web3.js would give). */
function fromWire(raw: Uint8Array, w: WireTransaction, resolveTable?: LookupTableResolver): ParsedTransaction {
  const staticKeys = w.staticKeys.map((k) => addressText(k));
  const lookups = w.lookups.map((l) => ({
    accountKey: addressText(l.accountKey),
    writableIndexes: l.writableIndexes,
    readonlyIndexes: l.readonlyIndexes,
  }));
  const loaded = loadLookups(lookups, resolveTable);
  const accountKeys = [...staticKeys, ...loaded.writable, ...loaded.readonly];
  const numSigners = w.numRequiredSignatures;
  return {
    raw,
    signature: base58Encode(w.signatures[0]!),
    messageBytes: raw.subarray(w.messageOffset),
    version: w.version,
    accountKeys,
    numSigners,
    writable: accountKeys.map((_, i) => (i < staticKeys.length ? isStaticWritable(w, i) : i < staticKeys.length + loaded.writable.length)),
    instructions: w.instructions,
    recentBlockhash: addressText(w.recentBlockhash),
    signatures: w.signatures,
    signerKeys: w.staticKeys.slice(0, numSigners),
    canonical: true,
  };
}

/** Any other form web3.js reads (trailing bytes, non-minimal lengths…): its results and errors. */
function fromWeb3(raw: Uint8Array, resolveTable?: LookupTableResolver): ParsedTransaction {
  let tx: VersionedTransaction;
  try {
    tx = VersionedTransaction.deserialize(raw);
  } catch (e) {
    throw new LedgerError('invalid', `failed to deserialize transaction: ${(e as Error).message}`);
  }
  const msg = tx.message;
  const numSigners = msg.header.numRequiredSignatures;
  if (tx.signatures.length !== numSigners || numSigners === 0) {
    throw new LedgerError('invalid', 'transaction signature count does not match the message header');
  }
  // Through the runtime's base58 cache: the same payers, mints and programs come back all the time.
  const staticKeys = msg.staticAccountKeys.map((k) => addressText(k.toBytes()));
  const lookups = msg.version === 0 ? msg.addressTableLookups.map((l) => ({ ...l, accountKey: l.accountKey.toBase58() })) : [];
  const loaded = loadLookups(lookups, resolveTable);
  const accountKeys = [...staticKeys, ...loaded.writable, ...loaded.readonly];
  return {
    raw,
    signature: base58Encode(tx.signatures[0]!), // the transaction's id; the others are never looked up
    // The signed message is the wire bytes after the signature list (compact-u16 count + 64 each):
    // slicing it avoids re-serializing, and verifies exactly the bytes the client signed.
    messageBytes: numSigners < 128 ? raw.subarray(1 + 64 * numSigners) : msg.serialize(),
    version: msg.version === 'legacy' ? 'legacy' : 0,
    accountKeys,
    numSigners,
    writable: accountKeys.map((_, i) =>
      i < staticKeys.length ? msg.isAccountWritable(i) : i < staticKeys.length + loaded.writable.length,
    ),
    instructions: msg.compiledInstructions.map((ix) => ({
      programIndex: ix.programIdIndex,
      accounts: ix.accountKeyIndexes,
      data: ix.data,
    })),
    recentBlockhash: msg.recentBlockhash,
    signatures: tx.signatures,
    signerKeys: msg.staticAccountKeys.slice(0, numSigners).map((k) => k.toBytes()),
    canonical: false,
  };
}

/** Throws what a node answers when a required signature is missing or invalid. */
export function assertSigned(p: ParsedTransaction): void {
  if (!signaturesValid(p)) throw new LedgerError('signature', 'Transaction signature verification failure');
}

/** True when every required signer produced a valid Ed25519 signature over the message. */
export function signaturesValid(p: ParsedTransaction): boolean {
  for (let i = 0; i < p.numSigners; i++) {
    if (!verifyEd25519(p.messageBytes, p.signatures[i]!, p.signerKeys[i]!)) return false;
  }
  return true;
}

interface Lookup {
  accountKey: string;
  writableIndexes: number[];
  readonlyIndexes: number[];
}

function loadLookups(lookups: readonly Lookup[], resolveTable?: LookupTableResolver): { writable: string[]; readonly: string[] } {
  const out = { writable: [] as string[], readonly: [] as string[] };
  for (const lookup of lookups) {
    const addresses = resolveTable?.(lookup.accountKey) ?? null;
    if (!addresses) throw new LedgerError('invalid', `address lookup table ${lookup.accountKey} not found`);
    const pick = (i: number) => {
      const a = addresses[i];
      if (!a) throw new LedgerError('invalid', `invalid address lookup table index ${i}`);
      return a;
    };
    out.writable.push(...lookup.writableIndexes.map(pick));
    out.readonly.push(...lookup.readonlyIndexes.map(pick));
  }
  return out;
}
