// The ledger's base58 encoder gives bs58's text for every input: random bytes of every length
// up to 80 (signatures are 64, keys 32), leading zero bytes, all zeros, all 0xff, empty.
import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { base58Encode } from '../src/base58-encode.js';

describe('base58Encode', () => {
  it('matches bs58 on random bytes of every length, with and without leading zeros', () => {
    for (let len = 0; len <= 80; len++) {
      for (let k = 0; k < 40; k++) {
        const bytes = randomBytes(len);
        if (k % 4 === 1) bytes.fill(0, 0, Math.min(len, k % 7));
        expect(base58Encode(bytes)).toBe(bs58.encode(bytes));
      }
    }
  });

  it('matches bs58 at the edges', () => {
    for (const len of [0, 1, 2, 31, 32, 33, 63, 64, 65]) {
      for (const fill of [0, 1, 0xff]) {
        const bytes = new Uint8Array(len).fill(fill);
        expect(base58Encode(bytes)).toBe(bs58.encode(bytes));
      }
    }
    const one = new Uint8Array(64);
    one[63] = 1;
    expect(base58Encode(one)).toBe(bs58.encode(one));
  });
});
