/**
 * Reads a transaction straight from its wire bytes (legacy or v0), without web3.js: its
 * deserializer copies the bytes into a JS array, builds a PublicKey per key and a base58 string
 * per instruction's data, which cost more than verifying the signature. It only reads the
 * canonical form, the one every client's serializer writes: minimal compact-u16 lengths, as many
 * signatures as the header requires (at least one), and nothing after the message. Anything else
 * answers null and the caller parses with web3.js, whose results and errors stay the reference.
 * For a canonical transaction the message bytes are exactly what the runtime re-serializes and
 * verifies, so the runtime's own signature check applies to the same bytes as ours.
 */

export interface WireLookup {
  accountKey: Uint8Array;
  writableIndexes: number[];
  readonlyIndexes: number[];
}

export interface WireTransaction {
  signatures: Uint8Array[];
  /** Byte offset of the message (after the signatures). */
  messageOffset: number;
  version: 'legacy' | 0;
  numRequiredSignatures: number;
  numReadonlySigned: number;
  numReadonlyUnsigned: number;
  staticKeys: Uint8Array[];
  recentBlockhash: Uint8Array;
  instructions: { programIndex: number; accounts: number[]; data: Uint8Array }[];
  lookups: WireLookup[];
}

/** Thrown inside the reader on anything non-canonical; never escapes readWireTransaction. */
class NotCanonical extends Error {}

class Reader {
  at = 0;
  constructor(private readonly b: Uint8Array) {}

  byte(): number {
    if (this.at >= this.b.length) throw new NotCanonical();
    return this.b[this.at++]!;
  }

  bytes(n: number): Uint8Array {
    if (this.at + n > this.b.length) throw new NotCanonical();
    const out = this.b.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  /** compact-u16, minimal encoding only (1–3 bytes, no trailing zero group, ≤ 0xffff). */
  length(): number {
    let value = 0;
    for (let i = 0; i < 3; i++) {
      const byte = this.byte();
      value |= (byte & 0x7f) << (7 * i);
      if ((byte & 0x80) === 0) {
        if (i > 0 && byte === 0) throw new NotCanonical();
        if (value > 0xffff) throw new NotCanonical();
        return value;
      }
    }
    throw new NotCanonical();
  }

  indexes(): number[] {
    const n = this.length();
    return Array.from(this.bytes(n));
  }
}

export function readWireTransaction(raw: Uint8Array): WireTransaction | null {
  try {
    return read(raw);
  } catch (e) {
    if (e instanceof NotCanonical) return null;
    throw e;
  }
}

function read(raw: Uint8Array): WireTransaction {
  const r = new Reader(raw);
  const signatureCount = r.length();
  const signatures = Array.from({ length: signatureCount }, () => r.bytes(64));
  const messageOffset = r.at;
  const first = r.byte();
  let version: 'legacy' | 0 = 'legacy';
  let numRequiredSignatures = first;
  if (first & 0x80) {
    if (first !== 0x80) throw new NotCanonical(); // versions above 0: web3.js's error
    version = 0;
    numRequiredSignatures = r.byte();
  }
  const numReadonlySigned = r.byte();
  const numReadonlyUnsigned = r.byte();
  const keyCount = r.length();
  const staticKeys = Array.from({ length: keyCount }, () => r.bytes(32));
  const recentBlockhash = r.bytes(32);
  const instructions = Array.from({ length: r.length() }, () => {
    const programIndex = r.byte();
    const accounts = r.indexes();
    const data = r.bytes(r.length());
    return { programIndex, accounts, data };
  });
  const lookups: WireLookup[] =
    version === 0
      ? Array.from({ length: r.length() }, () => ({ accountKey: r.bytes(32), writableIndexes: r.indexes(), readonlyIndexes: r.indexes() }))
      : [];
  // What the ledger would refuse or web3.js would treat its own way: left to the reference path.
  if (r.at !== raw.length || signatureCount === 0 || signatureCount !== numRequiredSignatures || numRequiredSignatures > keyCount) {
    throw new NotCanonical();
  }
  return {
    signatures,
    messageOffset,
    version,
    numRequiredSignatures,
    numReadonlySigned,
    numReadonlyUnsigned,
    staticKeys,
    recentBlockhash,
    instructions,
    lookups,
  };
}

/** What says which static keys are writable: the header and the keys. */
export type StaticKeys = Pick<WireTransaction, 'numRequiredSignatures' | 'numReadonlySigned' | 'numReadonlyUnsigned' | 'staticKeys'>;

/**
 * A legacy message's header and static keys, read up to the keys only (svm-raw.ts: the accounts
 * an internal transaction can have LiteSVM write). The runtime reads the same keys or refuses the
 * bytes. Null for a versioned message (it may load addresses from tables) or a non-minimal length.
 */
export function readLegacyStaticKeys(raw: Uint8Array): StaticKeys | null {
  try {
    const r = new Reader(raw);
    r.bytes(64 * r.length());
    const numRequiredSignatures = r.byte();
    if (numRequiredSignatures & 0x80) return null;
    const numReadonlySigned = r.byte();
    const numReadonlyUnsigned = r.byte();
    const staticKeys = Array.from({ length: r.length() }, () => r.bytes(32));
    return { numRequiredSignatures, numReadonlySigned, numReadonlyUnsigned, staticKeys };
  } catch (e) {
    if (e instanceof NotCanonical) return null;
    throw e;
  }
}

/** web3.js's Message/MessageV0 isAccountWritable for a static key. */
export function isStaticWritable(w: StaticKeys, index: number): boolean {
  const signed = w.numRequiredSignatures;
  if (index < signed) return index < signed - w.numReadonlySigned;
  return index - signed < w.staticKeys.length - signed - w.numReadonlyUnsigned;
}
