/**
 * A submitted transaction, decoded once from its wire bytes (legacy or v0 message) into what the
 * ledger needs: signatures, message bytes to verify, static keys with signer/writable flags and
 * compiled instructions. A v0 message's address-table lookups are resolved through `resolveTable`
 * (the ledger reads the Address Lookup Table program's accounts), appending the loaded writable
 * then read-only addresses after the static keys, exactly as the runtime orders them.
 */
import { PACKET_DATA_SIZE } from '@pmx/programs';
import { VersionedTransaction, type PublicKey } from '@solana/web3.js';
import bs58 from 'bs58';
import { LedgerError } from './ledger-error.js';
import { verifyEd25519 } from './signature-verifier.js';
import { addressText } from './svm-raw.js';

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
  /** The decoded transaction, for handing to LiteSVM without re-parsing. */
  tx: VersionedTransaction;
}

/** The addresses a lookup table can serve now, or null when it does not exist or is deactivated. */
export type LookupTableResolver = (table: PublicKey) => PublicKey[] | null;

export function parseTransaction(raw: Uint8Array, resolveTable?: LookupTableResolver): ParsedTransaction {
  if (raw.length > PACKET_DATA_SIZE)
    throw new LedgerError('invalid', `transaction too large: ${raw.length} bytes (max ${PACKET_DATA_SIZE})`);
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
  const loaded = loadLookups(tx, resolveTable);
  const accountKeys = [...staticKeys, ...loaded.writable, ...loaded.readonly];
  return {
    raw,
    signature: bs58.encode(tx.signatures[0]!), // the transaction's id; the others are never looked up
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
    tx,
  };
}

/** True when every required signer produced a valid Ed25519 signature over the message. */
export function signaturesValid(p: ParsedTransaction): boolean {
  const keys = p.tx.message.staticAccountKeys;
  for (let i = 0; i < p.numSigners; i++) {
    if (!verifyEd25519(p.messageBytes, p.tx.signatures[i]!, keys[i]!.toBytes())) return false;
  }
  return true;
}

function loadLookups(tx: VersionedTransaction, resolveTable?: LookupTableResolver): { writable: string[]; readonly: string[] } {
  const out = { writable: [] as string[], readonly: [] as string[] };
  if (tx.message.version !== 0) return out;
  for (const lookup of tx.message.addressTableLookups) {
    const addresses = resolveTable?.(lookup.accountKey) ?? null;
    if (!addresses) throw new LedgerError('invalid', `address lookup table ${lookup.accountKey.toBase58()} not found`);
    const pick = (i: number) => {
      const a = addresses[i];
      if (!a) throw new LedgerError('invalid', `invalid address lookup table index ${i}`);
      return addressText(a.toBytes());
    };
    out.writable.push(...lookup.writableIndexes.map(pick));
    out.readonly.push(...lookup.readonlyIndexes.map(pick));
  }
  return out;
}
