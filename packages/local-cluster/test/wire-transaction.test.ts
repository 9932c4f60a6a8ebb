/**
 * The direct wire reader (wire-transaction.ts) against web3.js's deserializer, the reference it
 * replaces on the hot path: for random canonical transactions (legacy and v0, lookups, long
 * instruction data, any header) every field the ledger uses is the same, and any other form
 * (trailing bytes, a non-minimal length, a version above 0) is left to web3.js.
 */
import fc from 'fast-check';
import { Message, MessageV0, PublicKey, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { parseTransaction } from '../src/parsed-transaction.js';
import { isStaticWritable, readWireTransaction } from '../src/wire-transaction.js';

const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n });
const index = fc.integer({ min: 0, max: 255 });
const instruction = fc.record({
  programIdIndex: index,
  accountKeyIndexes: fc.array(index, { maxLength: 20 }),
  data: fc.uint8Array({ maxLength: 260 }), // past 127: two-byte lengths
});

/** A random transaction: header, keys and instructions need not make sense, only be well formed. */
const transaction = fc
  .record({
    v0: fc.boolean(),
    signers: fc.integer({ min: 1, max: 4 }),
    extraKeys: fc.integer({ min: 0, max: 12 }),
    readonlySigned: fc.integer({ min: 0, max: 3 }),
    readonlyUnsigned: fc.integer({ min: 0, max: 5 }),
    blockhash: bytes(32),
    instructions: fc.array(instruction, { maxLength: 3 }),
    lookups: fc.array(fc.record({ key: bytes(32), w: fc.array(index, { maxLength: 5 }), r: fc.array(index, { maxLength: 5 }) }), {
      maxLength: 3,
    }),
    seed: fc.integer(),
  })
  .map((t) => {
    const keys = Array.from(
      { length: t.signers + t.extraKeys },
      (_, i) => new PublicKey(Uint8Array.from({ length: 32 }, (_, k) => (t.seed + i * 31 + k * 7) & 0xff)),
    );
    const header = {
      numRequiredSignatures: t.signers,
      numReadonlySignedAccounts: Math.min(t.readonlySigned, t.signers - 1),
      numReadonlyUnsignedAccounts: Math.min(t.readonlyUnsigned, t.extraKeys),
    };
    const recentBlockhash = bs58.encode(t.blockhash);
    const message = t.v0
      ? new MessageV0({
          header,
          staticAccountKeys: keys,
          recentBlockhash,
          compiledInstructions: t.instructions,
          addressTableLookups: t.lookups.map((l) => ({ accountKey: new PublicKey(l.key), writableIndexes: l.w, readonlyIndexes: l.r })),
        })
      : new Message({
          header,
          accountKeys: keys,
          recentBlockhash,
          instructions: t.instructions.map((ix) => ({
            programIdIndex: ix.programIdIndex,
            accounts: ix.accountKeyIndexes,
            data: bs58.encode(ix.data),
          })),
        });
    const signatures = Array.from({ length: t.signers }, (_, i) => Uint8Array.from({ length: 64 }, (_, k) => (t.seed * 3 + i + k) & 0xff));
    try {
      return new VersionedTransaction(message, signatures).serialize();
    } catch {
      return null; // over web3.js's packet size
    }
  })
  .filter((raw): raw is Uint8Array => raw !== null);

describe('readWireTransaction', () => {
  it('reads every field of a canonical transaction as web3.js does', () => {
    fc.assert(
      fc.property(transaction, (raw) => {
        const w = readWireTransaction(raw);
        expect(w).not.toBeNull();
        const tx = VersionedTransaction.deserialize(raw);
        const msg = tx.message;
        expect(w!.signatures.map((s) => Buffer.from(s).toString('hex'))).toEqual(tx.signatures.map((s) => Buffer.from(s).toString('hex')));
        expect(w!.version).toBe(msg.version);
        expect(Buffer.from(raw.subarray(w!.messageOffset))).toEqual(Buffer.from(msg.serialize()));
        expect(w!.staticKeys.map((k) => bs58.encode(k))).toEqual(msg.staticAccountKeys.map((k) => k.toBase58()));
        expect(bs58.encode(w!.recentBlockhash)).toBe(msg.recentBlockhash);
        expect(w!.instructions.map((ix) => ({ p: ix.programIndex, a: ix.accounts, d: Buffer.from(ix.data).toString('hex') }))).toEqual(
          msg.compiledInstructions.map((ix) => ({
            p: ix.programIdIndex,
            a: ix.accountKeyIndexes,
            d: Buffer.from(ix.data).toString('hex'),
          })),
        );
        expect(w!.lookups.map((l) => ({ k: bs58.encode(l.accountKey), w: l.writableIndexes, r: l.readonlyIndexes }))).toEqual(
          msg.addressTableLookups.map((l) => ({ k: l.accountKey.toBase58(), w: l.writableIndexes, r: l.readonlyIndexes })),
        );
        msg.staticAccountKeys.forEach((_, i) => expect(isStaticWritable(w!, i)).toBe(msg.isAccountWritable(i)));
      }),
      { numRuns: 150 },
    );
  });

  it('leaves trailing bytes, non-minimal lengths and later versions to web3.js', () => {
    fc.assert(
      fc.property(transaction, (raw) => {
        expect(readWireTransaction(Uint8Array.from([...raw, 0]))).toBeNull();
        // The signature count written in two bytes (0x81 0x00 is a non-minimal 1).
        if (raw[0] === 1) expect(readWireTransaction(Uint8Array.from([0x81, 0x00, ...raw.subarray(1)]))).toBeNull();
      }),
      { numRuns: 100 },
    );
    const raw = fc.sample(
      transaction.filter((r) => r[1 + 64 * r[0]!]! === 0x80),
      1,
    )[0]!;
    const v1 = Uint8Array.from(raw);
    v1[1 + 64 * raw[0]!] = 0x81;
    expect(readWireTransaction(v1)).toBeNull();
  });

  it('parses a canonical transaction to what the web3.js path gives (accounts, flags, instructions)', () => {
    fc.assert(
      fc.property(
        transaction.filter((r) => r.length < 1232 && readWireTransaction(r)!.lookups.length === 0),
        (raw) => {
          const fast = parseTransaction(raw);
          const reference = parseTransaction(Uint8Array.from([...raw, 0])); // trailing byte: the web3.js path
          expect(fast.canonical).toBe(true);
          expect(reference.canonical).toBe(false);
          const view = (p: typeof fast) => ({
            signature: p.signature,
            version: p.version,
            accountKeys: p.accountKeys,
            numSigners: p.numSigners,
            writable: p.writable,
            recentBlockhash: p.recentBlockhash,
            instructions: p.instructions.map((ix) => ({ ...ix, data: Buffer.from(ix.data).toString('hex') })),
            signatures: p.signatures.map((s) => Buffer.from(s).toString('hex')),
            signerKeys: p.signerKeys.map((s) => Buffer.from(s).toString('hex')),
          });
          expect(view(fast)).toEqual(view(reference));
        },
      ),
      { numRuns: 200 },
    );
  });
});
