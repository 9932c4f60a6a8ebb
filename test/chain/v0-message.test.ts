/**
 * The v0 message compiler behind every settlement batch (@pmx/programs, src/solana/v0-message.ts):
 * byte for byte what @solana/web3.js's `TransactionMessage.compileToV0Message` produces for any
 * instructions and lookup tables (keys repeated across instructions and tables, signers and
 * invoked programs never looked up, a key held by two tables taken from the first), the same
 * header, static keys and lookups, and a signed transaction that web3.js reads back unchanged.
 */
import fc from 'fast-check';
import { AddressLookupTableAccount, Keypair, PublicKey, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { compileV0Message, signTransaction, v0TransactionSize } from '@pmx/programs';
import { instructionSpec, instructionsOf, type InstructionSpec } from '../helpers/instruction-specs.js';

const PAYER = Keypair.generate();
const POOL = [PAYER.publicKey, ...Array.from({ length: 11 }, () => Keypair.generate().publicKey)];
const BLOCKHASH = Keypair.generate().publicKey.toBase58(); // any 32 bytes in base58

// Fresh PublicKey objects each time: the compiler must tell keys apart by value, not identity.
const key = (i: number) => new PublicKey(POOL[i]!.toBytes());
const poolIndex = fc.integer({ min: 0, max: POOL.length - 1 });

const instruction = instructionSpec(POOL.length, 7);
const table = fc.array(poolIndex, { maxLength: 10 });

function build(specs: InstructionSpec[], tableSpecs: number[][]) {
  return {
    instructions: instructionsOf(specs, key),
    tables: tableSpecs.map(
      (addresses) =>
        new AddressLookupTableAccount({
          key: Keypair.generate().publicKey,
          state: { deactivationSlot: 2n ** 64n - 1n, lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0, addresses: addresses.map(key) },
        }),
    ),
  };
}

describe('compileV0Message', () => {
  it("equals web3.js's compileToV0Message byte for byte, with and without lookup tables", () => {
    fc.assert(
      fc.property(fc.array(instruction, { minLength: 1, maxLength: 5 }), fc.array(table, { maxLength: 3 }), (specs, tableSpecs) => {
        const { instructions, tables } = build(specs, tableSpecs);
        const ours = compileV0Message(key(0), instructions, BLOCKHASH, tables);
        const theirs = new TransactionMessage({ payerKey: key(0), recentBlockhash: BLOCKHASH, instructions }).compileToV0Message(tables);
        expect(Buffer.from(ours.serialize()).equals(Buffer.from(theirs.serialize()))).toBe(true);
        expect(ours.header).toEqual(theirs.header);
        expect(ours.staticAccountKeys.map((k) => k.toBase58())).toEqual(theirs.staticAccountKeys.map((k) => k.toBase58()));
        expect(ours.addressTableLookups).toEqual(theirs.addressTableLookups);
      }),
      { numRuns: 400 },
    );
  });

  it('signs, serializes and reads back through VersionedTransaction with the size it announced', () => {
    const { instructions, tables } = build(
      [
        {
          program: 3,
          keys: [
            { key: 4, isSigner: false, isWritable: true },
            { key: 5, isSigner: false, isWritable: false },
          ],
          data: new Uint8Array([1, 2]),
        },
        {
          program: 6,
          keys: [
            { key: 0, isSigner: true, isWritable: true },
            { key: 7, isSigner: false, isWritable: true },
          ],
          data: new Uint8Array(9),
        },
      ],
      [[4, 5, 7, 3]],
    );
    const message = compileV0Message(PAYER.publicKey, instructions, BLOCKHASH, tables);
    expect(message.addressTableLookups[0]!.writableIndexes).toEqual([0, 2]);
    expect(message.addressTableLookups[0]!.readonlyIndexes).toEqual([1]); // the program (index 3) stays static
    const transaction = new VersionedTransaction(message);
    signTransaction(transaction, [PAYER]);
    const raw = transaction.serialize();
    expect(raw.length).toBe(v0TransactionSize(message));
    const back = VersionedTransaction.deserialize(raw);
    expect(Buffer.from(back.message.serialize()).equals(Buffer.from(message.serialize()))).toBe(true);
    expect(Buffer.from(back.signatures[0]!).equals(Buffer.from(transaction.signatures[0]!))).toBe(true);
  });

  it('follows a changed blockhash (the keeper plans with a placeholder, then sends with a fresh one)', () => {
    const { instructions } = build([{ program: 2, keys: [{ key: 3, isSigner: false, isWritable: true }], data: new Uint8Array(1) }], []);
    const message = compileV0Message(key(0), instructions, '11111111111111111111111111111111');
    message.recentBlockhash = BLOCKHASH;
    const theirs = new TransactionMessage({ payerKey: key(0), recentBlockhash: BLOCKHASH, instructions }).compileToV0Message();
    expect(Buffer.from(message.serialize()).equals(Buffer.from(theirs.serialize()))).toBe(true);
  });
});
