/**
 * The fill receipt's address from the fill UUID's bytes (`findFillReceiptPdaOfSeed`, what the
 * embedded settle uses) is the address from its text (`findFillReceiptPda`, the keeper's and the
 * index's) and web3.js's own derivation, for any 16 bytes; other lengths are refused as the text
 * path refuses them.
 */
import fc from 'fast-check';
import { Keypair, PublicKey } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { EXCHANGE_PROGRAM_ID, findFillReceiptPda, findFillReceiptPdaOfSeed, uuidFromSeed } from '../../src/index.js';

describe('findFillReceiptPdaOfSeed', () => {
  it('answers the text path and web3.js for any 16 bytes', () => {
    const other = Keypair.generate().publicKey;
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), fc.boolean(), (seed, exchange) => {
        const program = exchange ? EXCHANGE_PROGRAM_ID : other;
        const [key, bump] = findFillReceiptPdaOfSeed(seed, program);
        const [byText, bumpByText] = findFillReceiptPda(uuidFromSeed(seed), program);
        const [byWeb3, bumpByWeb3] = PublicKey.findProgramAddressSync([Buffer.from('fill_receipt'), seed], program);
        expect(key.toBase58()).toBe(byText.toBase58());
        expect(key.toBase58()).toBe(byWeb3.toBase58());
        expect([bump, bumpByText]).toEqual([bumpByWeb3, bumpByWeb3]);
      }),
      { numRuns: 60 },
    );
  });

  it('refuses a seed of another length', () => {
    for (const n of [0, 15, 17, 32]) expect(() => findFillReceiptPdaOfSeed(new Uint8Array(n))).toThrow(RangeError);
  });
});
