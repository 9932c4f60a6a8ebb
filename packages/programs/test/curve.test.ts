/** src/solana/curve.ts and pda-cache's derivation answer as web3.js's PublicKey.isOnCurve and findProgramAddressSync, on random input and the edge cases. */
import { randomBytes } from 'node:crypto';
import { Keypair, PublicKey } from '@solana/web3.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOnCurve } from '../src/solana/curve.js';
import { deriveProgramAddress, findProgramAddressCached } from '../src/solana/pda-cache.js';

const P = 2n ** 255n - 19n;
const le = (n: bigint, sign = false) => {
  const b = Buffer.alloc(32);
  for (let i = 0; i < 32; i++) b[i] = Number((n >> BigInt(8 * i)) & 0xffn);
  if (sign) b[31]! |= 0x80;
  return b;
};

describe('isOnCurve', () => {
  it('agrees with web3.js on random bytes (about half on the curve) and on wallet keys', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (b) => isOnCurve(b) === PublicKey.isOnCurve(b)),
      { numRuns: 3000 },
    );
    for (let i = 0; i < 200; i++) expect(isOnCurve(Keypair.generate().publicKey.toBytes())).toBe(true);
    const answers = Array.from({ length: 400 }, () => isOnCurve(randomBytes(32)));
    expect(answers.filter(Boolean).length).toBeGreaterThan(100); // both answers occur
    expect(answers.filter((a) => !a).length).toBeGreaterThan(100);
  });

  it('agrees on the edge cases: y = ±1 (x = 0) with either sign bit, y at and past p, zero', () => {
    const edges = [
      le(1n),
      le(1n, true),
      le(P - 1n),
      le(P - 1n, true),
      le(P),
      le(P + 1n),
      le(2n ** 255n - 1n),
      le(0n),
      le(0n, true),
      le(P - 2n),
    ];
    for (const e of edges)
      expect([Buffer.from(e).toString('hex'), isOnCurve(e)]).toEqual([Buffer.from(e).toString('hex'), PublicKey.isOnCurve(e)]);
    expect(isOnCurve(new Uint8Array(31))).toBe(false);
  });
});

describe('deriveProgramAddress', () => {
  it('finds the address and bump web3.js finds, for random seeds and programs', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 32 }), { maxLength: 4 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (seeds, program) => {
          const programId = new PublicKey(program);
          const [ours, bump] = deriveProgramAddress(seeds, programId);
          const [theirs, theirBump] = PublicKey.findProgramAddressSync(
            seeds.map((s) => Buffer.from(s)),
            programId,
          );
          return ours.equals(theirs) && bump === theirBump;
        },
      ),
      { numRuns: 500 },
    );
    expect(() => deriveProgramAddress([new Uint8Array(33)], Keypair.generate().publicKey)).toThrow(TypeError);
  });
});

describe('findProgramAddressCached', () => {
  it('answers as web3.js for seeds that split the same bytes differently (the cache key tells them apart)', () => {
    const programId = Keypair.generate().publicKey;
    const colon = 0x3a;
    const splits: Uint8Array[][] = [
      [Uint8Array.of(1, colon), Uint8Array.of(2)],
      [Uint8Array.of(1), Uint8Array.of(colon, 2)],
      [Uint8Array.of(1, colon, 2)],
      [Uint8Array.of(1, colon, 2), new Uint8Array(0)],
      [new Uint8Array(0), Uint8Array.of(1, colon, 2)],
    ];
    for (let round = 0; round < 2; round++)
      for (const seeds of splits) {
        const [ours, bump] = findProgramAddressCached(seeds, programId);
        const [theirs, theirBump] = PublicKey.findProgramAddressSync(
          seeds.map((s) => Buffer.from(s)),
          programId,
        );
        expect([ours.toBase58(), bump]).toEqual([theirs.toBase58(), theirBump]);
      }
  });
});
