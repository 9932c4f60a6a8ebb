/**
 * Random instructions for the message compilers' property tests (legacy and v0): each spec names
 * its program and keys by index into the test's pool of keys, so instructions share keys often.
 */
import fc from 'fast-check';
import { type PublicKey, TransactionInstruction } from '@solana/web3.js';

export type InstructionSpec = { program: number; keys: Array<{ key: number; isSigner: boolean; isWritable: boolean }>; data: Uint8Array };

/** An instruction over a pool of `poolSize` keys, with up to `maxKeys` account keys. */
export function instructionSpec(poolSize: number, maxKeys: number): fc.Arbitrary<InstructionSpec> {
  const poolIndex = fc.integer({ min: 0, max: poolSize - 1 });
  return fc.record({
    program: poolIndex,
    keys: fc.array(fc.record({ key: poolIndex, isSigner: fc.boolean(), isWritable: fc.boolean() }), { maxLength: maxKeys }),
    data: fc.uint8Array({ maxLength: 40 }),
  });
}

/** The web3.js instructions of `specs`, each key made by `key` (fresh objects: compilers must compare by value). */
export function instructionsOf(specs: InstructionSpec[], key: (index: number) => PublicKey): TransactionInstruction[] {
  return specs.map(
    (s) =>
      new TransactionInstruction({
        programId: key(s.program),
        keys: s.keys.map((k) => ({ pubkey: key(k.key), isSigner: k.isSigner, isWritable: k.isWritable })),
        data: Buffer.from(s.data),
      }),
  );
}
