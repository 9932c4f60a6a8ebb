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

export function compileLegacyMessage(
  payer: PublicKey,
  instructions: readonly TransactionInstruction[],
  blockhash: string,
): CompiledLegacyMessage {
  const metas = new Map<string, KeyMeta>();
  const meta = (key: PublicKey): KeyMeta => {
    const bytes = bytesOf(key);
    const id = bytes.toString('latin1');
    let m = metas.get(id);
    if (!m) metas.set(id, (m = { bytes, signer: false, writable: false }));
    return m;
  };
  const payerMeta = meta(payer);
  payerMeta.signer = true;
  payerMeta.writable = true;
  for (const ix of instructions) {
    meta(ix.programId);
    for (const k of ix.keys) {
      const m = meta(k.pubkey);
      m.signer ||= k.isSigner;
      m.writable ||= k.isWritable;
    }
  }
  const all = [...metas.values()];
  const groups = [
    all.filter((m) => m.signer && m.writable),
    all.filter((m) => m.signer && !m.writable),
    all.filter((m) => !m.signer && m.writable),
    all.filter((m) => !m.signer && !m.writable),
  ];
  const ordered = groups.flat();
  const index = new Map(ordered.map((m, i) => [m.bytes.toString('latin1'), i]));
  const indexOf = (key: PublicKey) => index.get(bytesOf(key).toString('latin1'))!;
  const numRequiredSignatures = groups[0]!.length + groups[1]!.length;
  const parts: Buffer[] = [
    Buffer.from([numRequiredSignatures, groups[1]!.length, groups[3]!.length, ...shortvec(ordered.length)]),
    ...ordered.map((m) => m.bytes),
    blockhashBytes(blockhash),
    Buffer.from(shortvec(instructions.length)),
  ];
  for (const ix of instructions) {
    parts.push(
      Buffer.from([
        indexOf(ix.programId),
        ...shortvec(ix.keys.length),
        ...ix.keys.map((k) => indexOf(k.pubkey)),
        ...shortvec(ix.data.length),
      ]),
      ix.data,
    );
  }
  return { message: Buffer.concat(parts), numRequiredSignatures };
}

/** The wire bytes of an unsigned transaction: its signature slots zeroed, then the message. */
export function unsignedWireBytes(compiled: CompiledLegacyMessage): Buffer {
  return Buffer.concat([
    Buffer.from(shortvec(compiled.numRequiredSignatures)),
    Buffer.alloc(64 * compiled.numRequiredSignatures),
    compiled.message,
  ]);
}
