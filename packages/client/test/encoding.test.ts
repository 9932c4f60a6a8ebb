import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { base58Decode, base58Encode, fromBase64, toBase64 } from '../src/index.js';

describe('encodings (no Buffer, no base58 package: the client runs in browsers)', () => {
  it('base58 agrees with the bs58 package both ways, leading zero bytes included', () => {
    const samples = [new Uint8Array(0), new Uint8Array(32), Uint8Array.from([0, 0, 1]), Uint8Array.from([255])];
    for (let i = 0; i < 200; i++) {
      const bytes = randomBytes(1 + (i % 64));
      if (i % 5 === 0) bytes.fill(0, 0, Math.min(bytes.length, 1 + (i % 3)));
      samples.push(new Uint8Array(bytes));
    }
    for (const bytes of samples) {
      const text = bs58.encode(bytes);
      expect(base58Encode(bytes)).toBe(text);
      expect([...base58Decode(text)]).toEqual([...bytes]);
    }
  });

  it('base58 refuses a character outside its alphabet', () => {
    expect(() => base58Decode('0OIl')).toThrow(/not base58/);
  });

  it('base64 agrees with Buffer both ways', () => {
    for (let n = 0; n < 70; n++) {
      const bytes = new Uint8Array(randomBytes(n));
      expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
      expect([...fromBase64(Buffer.from(bytes).toString('base64'))]).toEqual([...bytes]);
    }
  });
});
