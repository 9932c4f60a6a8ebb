/**
 * A legacy transaction message compiled straight to wire bytes. @solana/web3.js's
 * `Transaction.compileMessage` base58-encodes every account key several times over (deduplicating
 * and sorting by string, with a locale-aware comparison): 9 % of the buy route's CPU. Here keys
 * are told apart by their 32 bytes and ordered as the runtime requires and web3.js's own
 * `Message.compile` orders them: the fee payer, then writable signers, read-only signers, writable
 * non-signers, read-only non-signers, each group in first-seen order.
 *
 * Kept because bench/solana-primitives.bench.ts (2026-11-26, 2 cores shared, load ~15, Node 20;
 * median of 3 runs, a buy-shaped message: 3 instructions, 16 keys): this 9,700 messages/s,
 * web3.js Message.compile + serialize 550 (this 18×), kit compileTransactionMessage + its encoder
 * 250 (39×). kit's bytes also differ: it orders each group by address collation, not first-seen.
 */
import bs58 from 'bs58';
import type { PublicKey, TransactionInstruction } from '@solana/web3.js';

interface KeyMeta {
  bytes: Buffer;
  signer: boolean;
  writable: boolean;
  /** Its place among the message's keys, once ordered. */
  index: number;
}

const keyBytes = new WeakMap<PublicKey, Buffer>();

/** A key's 32 bytes, once per PublicKey object (web3.js re-encodes its BN on every toBuffer). */
export function bytesOf(key: PublicKey): Buffer {
  let b = keyBytes.get(key);
  if (!b) keyBytes.set(key, (b = key.toBuffer()));
  return b;
}

let lastBlockhash: [string, Buffer] = ['', Buffer.alloc(0)];

/** The 32 bytes of a base58 blockhash (the last one kept: a group of messages shares one). */
export function blockhashBytes(blockhash: string): Buffer {
  if (lastBlockhash[0] !== blockhash) {
    const bytes = Buffer.from(bs58.decode(blockhash));
    if (bytes.length !== 32) throw new TypeError(`not a 32-byte blockhash: ${blockhash}`);
    lastBlockhash = [blockhash, bytes];
  }
  return lastBlockhash[1];
}

/** Solana's compact-u16 ("shortvec") length prefix. */
export function shortvec(n: number): number[] {
  const out: number[] = [];
  let rest = n;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    if (rest === 0) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

export interface CompiledLegacyMessage {
  /** The message bytes (what signers sign). */
  message: Buffer;
  numRequiredSignatures: number;
}

/** A key's 32 bytes as a latin1 string (a Map key), once per PublicKey object. */
const keyIds = new WeakMap<PublicKey, string>();

function idOf(key: PublicKey): string {
  let id = keyIds.get(key);
  if (id === undefined) keyIds.set(key, (id = bytesOf(key).toString('latin1')));
  return id;
}

function shortvecLength(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : 3;
}

function writeShortvec(out: Buffer, at: number, n: number): number {
  for (const byte of shortvec(n)) out[at++] = byte;
  return at;
}

/**
 * One pass over the instructions collects each key once (its id made once per key object) and
 * each instruction's keys in order; the bytes are then written into one buffer of the exact size.
 * Every internal transaction of the embedded ledger is compiled here (about four a settle).
 */
export function compileLegacyMessage(
  payer: PublicKey,
  instructions: readonly TransactionInstruction[],
  blockhash: string,
): CompiledLegacyMessage {
  const metas = new Map<string, KeyMeta>();
  const seen: KeyMeta[] = [];
  const meta = (key: PublicKey): KeyMeta => {
    const id = idOf(key);
    let m = metas.get(id);
    if (!m) {
      metas.set(id, (m = { bytes: bytesOf(key), signer: false, writable: false, index: 0 }));
      seen.push(m);
    }
    return m;
  };
  const payerMeta = meta(payer);
  payerMeta.signer = true;
  payerMeta.writable = true;
  let size = 3 + 32 + shortvecLength(instructions.length);
  const programs: KeyMeta[] = [];
  const accounts: KeyMeta[][] = [];
  for (const ix of instructions) {
    programs.push(meta(ix.programId));
    const keys: KeyMeta[] = [];
    for (const k of ix.keys) {
      const m = meta(k.pubkey);
      m.signer ||= k.isSigner;
      m.writable ||= k.isWritable;
      keys.push(m);
    }
    accounts.push(keys);
    size += 1 + shortvecLength(ix.keys.length) + ix.keys.length + shortvecLength(ix.data.length) + ix.data.length;
  }
  // The runtime's order: writable signers, read-only signers, writable, read-only; first seen within each.
  const ordered: KeyMeta[] = [];
  const counts = [0, 0, 0, 0];
  for (let group = 0; group < 4; group++) {
    const signer = group < 2;
    const writable = group % 2 === 0;
    for (const m of seen) {
      if (m.signer !== signer || m.writable !== writable) continue;
      m.index = ordered.length;
      ordered.push(m);
      counts[group]!++;
    }
  }
  size += shortvecLength(ordered.length) + 32 * ordered.length;
  const out = Buffer.allocUnsafe(size);
  out[0] = counts[0]! + counts[1]!;
  out[1] = counts[1]!;
  out[2] = counts[3]!;
  let at = writeShortvec(out, 3, ordered.length);
  for (const m of ordered) at += m.bytes.copy(out, at);
  at += blockhashBytes(blockhash).copy(out, at);
  at = writeShortvec(out, at, instructions.length);
  instructions.forEach((ix, i) => {
    out[at++] = programs[i]!.index;
    at = writeShortvec(out, at, ix.keys.length);
    for (const m of accounts[i]!) out[at++] = m.index;
    at = writeShortvec(out, at, ix.data.length);
    at += Buffer.from(ix.data.buffer, ix.data.byteOffset, ix.data.byteLength).copy(out, at);
  });
  return { message: out, numRequiredSignatures: counts[0]! + counts[1]! };
}

/** The wire bytes of an unsigned transaction: its signature slots zeroed, then the message. */
export function unsignedWireBytes(compiled: CompiledLegacyMessage): Buffer {
  return Buffer.concat([
    Buffer.from(shortvec(compiled.numRequiredSignatures)),
    Buffer.alloc(64 * compiled.numRequiredSignatures),
    compiled.message,
  ]);
}
