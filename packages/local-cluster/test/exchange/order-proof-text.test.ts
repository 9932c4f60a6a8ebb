/**
 * The order text an Ed25519 proof carries, read back to the order's 92 bytes (order-proof.ts,
 * `parseOrderText`): the same answer as the reading it replaced (a regex over the hex, a decode,
 * and the whole text made again from the bytes to compare), on well-formed texts and on texts
 * changed anywhere (a byte, upper-case hex, the prefix, the length).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ORDER_MESSAGE_LENGTH, ORDER_TEXT_PREFIX, orderSigningBytes } from '@pmx/programs';
import { ORDER_TEXT_LENGTH, parseOrderText } from '../../src/programs/exchange/order-proof.js';

function reference(text: Uint8Array): Uint8Array | null {
  if (text.length !== ORDER_TEXT_LENGTH) return null;
  const hex = Buffer.from(text.subarray(ORDER_TEXT_PREFIX.length)).toString('latin1');
  if (!/^[0-9a-f]*$/.test(hex)) return null;
  const bytes = Uint8Array.from(Buffer.from(hex, 'hex'));
  return Buffer.from(orderSigningBytes(bytes)).equals(text) ? bytes : null;
}

const message = fc.uint8Array({ minLength: ORDER_MESSAGE_LENGTH, maxLength: ORDER_MESSAGE_LENGTH });

const changed = fc
  .tuple(message, fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('byte', 'upper', 'cut', 'grow'))
  .map(([m, at, value, how]) => {
    const text = Uint8Array.from(orderSigningBytes(m));
    const i = at % text.length;
    if (how === 'byte') text[i] = value;
    if (how === 'upper') return Uint8Array.from(Buffer.from(Buffer.from(text).toString('latin1').toUpperCase(), 'latin1'));
    if (how === 'cut') return text.subarray(0, i);
    if (how === 'grow') return Uint8Array.from([...text, value]);
    return text;
  });

describe('parseOrderText', () => {
  it('reads every well-formed text back to its bytes', () => {
    fc.assert(
      fc.property(message, (m) => {
        expect(parseOrderText(orderSigningBytes(m))).toEqual(m);
      }),
    );
  });

  it('answers as the regex-and-re-encode reading on texts changed anywhere', () => {
    fc.assert(
      fc.property(changed, (text) => {
        expect(parseOrderText(text)).toEqual(reference(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('answers as it on any bytes of the right length', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: ORDER_TEXT_LENGTH, maxLength: ORDER_TEXT_LENGTH }), (text) => {
        expect(parseOrderText(text)).toEqual(reference(text));
      }),
    );
  });
});
