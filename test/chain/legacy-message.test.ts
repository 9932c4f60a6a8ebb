/**
 * The legacy message compiler behind every Family B transaction (@pmx/programs, src/solana/legacy-message.ts):
 * byte for byte what @solana/web3.js's `Message.compile` produces for any set of instructions
 * (keys repeated across instructions, signer and writable flags merged, programs invoked), and
 * the unsigned wire bytes read back by `Transaction.from` (what clients do) to the same
 * instructions, with signature slots for exactly the signers.
 */
import fc from 'fast-check';
import { Keypair, Message, PublicKey, Transaction, TransactionInstruction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { compileLegacyMessage, unsignedWireBytes } from '@pmx/programs';
import { assembleUnsignedTransaction } from '../../src/chain/transaction-assembly.js';
import { instructionSpec, instructionsOf, type InstructionSpec } from '../helpers/instruction-specs.js';

const POOL = Array.from({ length: 8 }, () => Keypair.generate().publicKey);
const BLOCKHASH = Keypair.generate().publicKey.toBase58(); // any 32 bytes in base58

const instruction = instructionSpec(POOL.length, 6);

function build(payerIndex: number, specs: InstructionSpec[]) {
  // Fresh PublicKey objects each time: the compiler must tell keys apart by value, not identity.
  const key = (i: number) => new PublicKey(POOL[i]!.toBytes());
  return {
    payer: key(payerIndex),
    instructions: instructionsOf(specs, key),
  };
}

describe('compileLegacyMessage', () => {
  it("equals web3.js's Message.compile byte for byte", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: POOL.length - 1 }),
        fc.array(instruction, { minLength: 1, maxLength: 5 }),
        (payerIndex, specs) => {
          const { payer, instructions } = build(payerIndex, specs);
          const ours = compileLegacyMessage(payer, instructions, BLOCKHASH);
          const theirs = Message.compile({ payerKey: payer, recentBlockhash: BLOCKHASH, instructions });
          expect(ours.message.equals(theirs.serialize())).toBe(true);
          expect(ours.numRequiredSignatures).toBe(theirs.header.numRequiredSignatures);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads back through Transaction.from as the same instructions, one empty signature slot per signer', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: POOL.length - 1 }),
        fc.array(instruction, { minLength: 1, maxLength: 5 }),
        (payerIndex, specs) => {
          const { payer, instructions } = build(payerIndex, specs);
          const compiled = compileLegacyMessage(payer, instructions, BLOCKHASH);
          const tx = Transaction.from(unsignedWireBytes(compiled));
          expect(tx.feePayer?.equals(payer)).toBe(true);
          expect(tx.recentBlockhash).toBe(BLOCKHASH);
          expect(tx.signatures).toHaveLength(compiled.numRequiredSignatures);
          expect(tx.signatures.every((s) => s.signature === null)).toBe(true);
          expect(
            tx.instructions.map((ix) => [
              ix.programId.toBase58(),
              ix.keys.map((k) => k.pubkey.toBase58()),
              Buffer.from(ix.data).toString('hex'),
            ]),
          ).toEqual(instructions.map((ix) => [ix.programId.toBase58(), ix.keys.map((k) => k.pubkey.toBase58()), ix.data.toString('hex')]));
          // Flags are per account across the message: a key is a signer (writable) if any use says so.
          const signer = (k: PublicKey) =>
            k.equals(payer) || instructions.some((ix) => ix.keys.some((m) => m.pubkey.equals(k) && m.isSigner));
          const writable = (k: PublicKey) =>
            k.equals(payer) || instructions.some((ix) => ix.keys.some((m) => m.pubkey.equals(k) && m.isWritable));
          for (const ix of tx.instructions)
            for (const k of ix.keys) expect([k.isSigner, k.isWritable]).toEqual([signer(k.pubkey), writable(k.pubkey)]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('assembleUnsignedTransaction refuses a transaction over the 1232-byte packet', () => {
    const payer = POOL[0]!;
    const big = new TransactionInstruction({ programId: POOL[1]!, keys: [], data: Buffer.alloc(1200) });
    expect(() => assembleUnsignedTransaction(payer, [big], { blockhash: BLOCKHASH, lastValidBlockHeight: 1 })).toThrow(/too large/);
  });
});
