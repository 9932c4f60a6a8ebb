/**
 * A v0 transaction message (address lookup tables) compiled from 32-byte keys, with the same
 * bytes as web3.js's `TransactionMessage.compileToV0Message` (test/v0-message.test.ts pins them).
 * web3.js keys its account map by base58 text (every key encoded, then decoded back for each
 * table), scans each table with `PublicKey.equals` per key (256 entries × ~40 keys), and
 * serializes through buffer-layout; the settlement planner compiles a message per candidate
 * batch, and that was most of its time (issue 31, docs/performance.md "The keeper's own work").
 *
 * Kept because bench/solana-primitives.bench.ts (2026-11-26, 2 cores shared, load ~13, Node 20;
 * a settlement-shaped message, 30 keys, two tables of 256): this 6,700 messages/s, web3.js
 * compileToV0Message + serialize 280 (this 24×). A table's index is built once per table object
 * (the planner compiles a group's candidates against the same tables).
 *
 * The order is web3.js's: the fee payer, then writable signers, read-only signers, writable
 * non-signers, read-only non-signers, each in first-seen order; then, table by table, the
 * non-signer keys that are not invoked programs and that the table holds (writable first, then
 * read-only, each at the first index that holds it) leave the static keys for the lookups.
 * The message returned is web3.js's `MessageV0` (signing, `VersionedTransaction` and every reader
 * work unchanged) whose `serialize` writes the bytes directly, so the sends pay less too.
 */
import {
  MessageV0,
  type AddressLookupTableAccount,
  type MessageAddressTableLookup,
  type MessageCompiledInstruction,
  type PublicKey,
  type TransactionInstruction,
} from '@solana/web3.js';
import { blockhashBytes, bytesOf, shortvec } from './legacy-message.js';

interface KeyMeta {
  key: PublicKey;
  signer: boolean;
  writable: boolean;
  invoked: boolean;
}

const idOf = (key: PublicKey) => bytesOf(key).toString('latin1');

/** Each table's first index of each address, kept while the table's address list is unchanged. */
const tableIndexes = new WeakMap<readonly PublicKey[], { length: number; at: Map<string, number> }>();

function indexOfTable(addresses: readonly PublicKey[]): Map<string, number> {
  const known = tableIndexes.get(addresses);
  if (known?.length === addresses.length) return known.at;
  const at = new Map<string, number>();
  addresses.forEach((address, i) => {
    const id = idOf(address);
    if (!at.has(id)) at.set(id, i);
  });
  tableIndexes.set(addresses, { length: addresses.length, at });
  return at;
}

/** A `MessageV0` whose wire bytes are written here rather than through buffer-layout. */
class CompiledMessageV0 extends MessageV0 {
  override serialize(): Uint8Array {
    return serializeV0Message(this);
  }
}

export function compileV0Message(
  payer: PublicKey,
  instructions: readonly TransactionInstruction[],
  recentBlockhash: string,
  tables: readonly AddressLookupTableAccount[] = [],
): MessageV0 {
  const metas = new Map<string, KeyMeta>();
  const meta = (key: PublicKey): KeyMeta => {
    const id = idOf(key);
    let m = metas.get(id);
    if (!m) metas.set(id, (m = { key, signer: false, writable: false, invoked: false }));
    return m;
  };
  const payerMeta = meta(payer);
  payerMeta.signer = true;
  payerMeta.writable = true;
  for (const ix of instructions) {
    meta(ix.programId).invoked = true;
    for (const account of ix.keys) {
      const m = meta(account.pubkey);
      m.signer ||= account.isSigner;
      m.writable ||= account.isWritable;
    }
  }
  const addressTableLookups: MessageAddressTableLookup[] = [];
  const looked = { writable: [] as KeyMeta[], readonly: [] as KeyMeta[] };
  for (const table of tables) {
    const at = indexOfTable(table.state.addresses);
    const drain = (writable: boolean): number[] => {
      const indexes: number[] = [];
      for (const [id, m] of metas) {
        if (m.signer || m.invoked || m.writable !== writable) continue;
        const index = at.get(id);
        if (index === undefined) continue;
        if (index >= 256) throw new Error('Max lookup table index exceeded');
        indexes.push(index);
        (writable ? looked.writable : looked.readonly).push(m);
        metas.delete(id); // deleting the current entry of a Map being iterated is safe
      }
      return indexes;
    };
    const writableIndexes = drain(true);
    const readonlyIndexes = drain(false);
    if (writableIndexes.length > 0 || readonlyIndexes.length > 0)
      addressTableLookups.push({ accountKey: table.key, writableIndexes, readonlyIndexes });
  }
  const all = [...metas.values()];
  if (all.length > 256) throw new Error('Max static account keys length exceeded');
  const groups = [
    all.filter((m) => m.signer && m.writable),
    all.filter((m) => m.signer && !m.writable),
    all.filter((m) => !m.signer && m.writable),
    all.filter((m) => !m.signer && !m.writable),
  ];
  const staticKeys = groups.flat();
  const ordered = [...staticKeys, ...looked.writable, ...looked.readonly];
  if (ordered.length > 256) throw new Error('Account index overflow encountered during compilation');
  const position = new Map(ordered.map((m, i) => [idOf(m.key), i]));
  const indexOf = (key: PublicKey) => position.get(idOf(key))!;
  const compiledInstructions: MessageCompiledInstruction[] = instructions.map((ix) => ({
    programIdIndex: indexOf(ix.programId),
    accountKeyIndexes: ix.keys.map((k) => indexOf(k.pubkey)),
    data: ix.data,
  }));
  return new CompiledMessageV0({
    header: {
      numRequiredSignatures: groups[0]!.length + groups[1]!.length,
      numReadonlySignedAccounts: groups[1]!.length,
      numReadonlyUnsignedAccounts: groups[3]!.length,
    },
    staticAccountKeys: staticKeys.map((m) => m.key),
    recentBlockhash,
    compiledInstructions,
    addressTableLookups,
  });
}

/** The wire bytes of a v0 message (what its signers sign), as `MessageV0.serialize` writes them. */
export function serializeV0Message(message: MessageV0): Buffer {
  const { header } = message;
  const parts: Uint8Array[] = [
    Buffer.from([
      0x80, // version 0
      header.numRequiredSignatures,
      header.numReadonlySignedAccounts,
      header.numReadonlyUnsignedAccounts,
      ...shortvec(message.staticAccountKeys.length),
    ]),
    ...message.staticAccountKeys.map(bytesOf),
    blockhashBytes(message.recentBlockhash),
    Buffer.from(shortvec(message.compiledInstructions.length)),
  ];
  for (const ix of message.compiledInstructions) {
    parts.push(
      Buffer.from([ix.programIdIndex, ...shortvec(ix.accountKeyIndexes.length), ...ix.accountKeyIndexes, ...shortvec(ix.data.length)]),
      ix.data,
    );
  }
  parts.push(Buffer.from(shortvec(message.addressTableLookups.length)));
  for (const lookup of message.addressTableLookups) {
    parts.push(
      bytesOf(lookup.accountKey),
      Buffer.from([
        ...shortvec(lookup.writableIndexes.length),
        ...lookup.writableIndexes,
        ...shortvec(lookup.readonlyIndexes.length),
        ...lookup.readonlyIndexes,
      ]),
    );
  }
  return Buffer.concat(parts);
}

/** The size on the wire of a transaction carrying `message` with all its signatures. */
export function v0TransactionSize(message: MessageV0): number {
  const signatures = message.header.numRequiredSignatures;
  return shortvec(signatures).length + 64 * signatures + serializeV0Message(message).length;
}
