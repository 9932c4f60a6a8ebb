import { describe, expect, it } from 'vitest';
import {
  ORDER_MESSAGE_LENGTH,
  OrderMessageError,
  decodeOrderMessage,
  encodeOrderMessage,
  orderSigningBytes,
  orderSigningLength,
  orderSigningText,
  type OrderMessage,
} from '../../../src/domain/orderbook/index.js';

const market = Uint8Array.from({ length: 32 }, (_, i) => i + 1); // 01 02 … 20
const owner = Uint8Array.from({ length: 32 }, (_, i) => 0xff - i); // ff fe … e0

const message: OrderMessage = {
  market,
  owner,
  side: 'sell',
  outcome: 'no',
  priceBps: 6500, // 0x1964 → 64 19
  quantity: 100_000_000n, // 0x05f5e100 → 00 e1 f5 05 00 00 00 00
  nonce: 0x0102030405060708n, // → 08 07 06 05 04 03 02 01
  expiry: -2n, // i64 two's complement → fe ff ff ff ff ff ff ff
};

describe('order message codec (92 bytes, little-endian)', () => {
  it('lays out every field at its documented offset', () => {
    const bytes = encodeOrderMessage(message);
    expect(bytes.length).toBe(ORDER_MESSAGE_LENGTH);
    expect([...bytes.subarray(0, 32)]).toEqual([...market]);
    expect([...bytes.subarray(32, 64)]).toEqual([...owner]);
    expect(bytes[64]).toBe(1); // sell
    expect(bytes[65]).toBe(1); // no
    expect([...bytes.subarray(66, 68)]).toEqual([0x64, 0x19]);
    expect([...bytes.subarray(68, 76)]).toEqual([0x00, 0xe1, 0xf5, 0x05, 0, 0, 0, 0]);
    expect([...bytes.subarray(76, 84)]).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    expect([...bytes.subarray(84, 92)]).toEqual([0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
  });

  it('encodes buy/yes as zero bytes and round-trips', () => {
    const buy = { ...message, side: 'buy' as const, outcome: 'yes' as const, expiry: 1_767_225_600n };
    const bytes = encodeOrderMessage(buy);
    expect(bytes[64]).toBe(0);
    expect(bytes[65]).toBe(0);
    expect(decodeOrderMessage(bytes)).toEqual(buy);
    expect(decodeOrderMessage(encodeOrderMessage(message))).toEqual(message);
  });

  it('signs the text "PMX Order:\\n" + lowercase hex of the 92 bytes', () => {
    const text = orderSigningText(message);
    const hex =
      '0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20' +
      'fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0efeeedecebeae9e8e7e6e5e4e3e2e1e0' +
      '0101' +
      '6419' +
      '00e1f50500000000' +
      '0807060504030201' +
      'feffffffffffffff';
    expect(text).toBe(`PMX Order:\n${hex}`);
    expect(hex.length).toBe(184);
    expect(new TextDecoder().decode(orderSigningBytes(encodeOrderMessage(message)))).toBe(text);
    // 11 bytes of prefix + 184 hex digits: what each new order's Ed25519 proof carries.
    expect(orderSigningLength(encodeOrderMessage(message))).toBe(195);
    expect(orderSigningLength(encodeOrderMessage(message))).toBe(orderSigningBytes(encodeOrderMessage(message)).length);
  });

  it('refuses malformed bytes and out-of-range fields', () => {
    expect(() => decodeOrderMessage(new Uint8Array(91))).toThrow(OrderMessageError);
    const bad = encodeOrderMessage(message);
    bad[64] = 2;
    expect(() => decodeOrderMessage(bad)).toThrow(/side byte/);
    expect(() => encodeOrderMessage({ ...message, priceBps: 70_000 })).toThrow(/u16/);
    expect(() => encodeOrderMessage({ ...message, quantity: -1n })).toThrow(/u64/);
    expect(() => encodeOrderMessage({ ...message, market: new Uint8Array(31) })).toThrow(/32 bytes/);
  });

  it('decodes from a view into a larger buffer', () => {
    const outer = new Uint8Array(100);
    outer.set(encodeOrderMessage(message), 8);
    expect(decodeOrderMessage(outer.subarray(8))).toEqual(message);
  });
});
