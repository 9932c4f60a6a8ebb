/**
 * A minimal Borsh-style little-endian writer/reader for the program's instruction data and
 * accounts: u8, u16, u32, u64, i64, 32-byte public keys, strings as u32 length + UTF-8 bytes.
 * Accounts place strings in fixed-capacity slots so that every field has a fixed offset.
 */
import { PublicKey } from '@solana/web3.js';

export class BorshWriter {
  private readonly chunks: Buffer[] = [];

  bytes(b: Uint8Array): this {
    this.chunks.push(Buffer.from(b));
    return this;
  }
  u8(v: number): this {
    return this.bytes(Buffer.from([v & 0xff]));
  }
  u16(v: number): this {
    const b = Buffer.alloc(2);
    b.writeUInt16LE(v);
    return this.bytes(b);
  }
  u32(v: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    return this.bytes(b);
  }
  u64(v: bigint): this {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(v); // throws RangeError outside 0..2^64−1
    return this.bytes(b);
  }
  i64(v: bigint): this {
    const b = Buffer.alloc(8);
    b.writeBigInt64LE(v);
    return this.bytes(b);
  }
  pubkey(p: PublicKey): this {
    return this.bytes(p.toBuffer());
  }
  string(s: string): this {
    const utf8 = Buffer.from(s, 'utf8');
    return this.u32(utf8.length).bytes(utf8);
  }
  /** A string in a fixed slot of 4 + capacity bytes, zero-padded. */
  fixedString(s: string, capacity: number): this {
    const utf8 = Buffer.from(s, 'utf8');
    if (utf8.length > capacity) throw new RangeError(`string of ${utf8.length} bytes exceeds ${capacity}`);
    return this.u32(utf8.length).bytes(utf8).bytes(Buffer.alloc(capacity - utf8.length));
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

export class BorshReader {
  constructor(
    private readonly data: Buffer,
    private offset = 0,
  ) {}

  private take(n: number): Buffer {
    if (this.offset + n > this.data.length) throw new RangeError('read past the end of the data');
    const out = this.data.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }
  get position(): number {
    return this.offset;
  }
  bytes(n: number): Buffer {
    return this.take(n);
  }
  u8(): number {
    return this.take(1).readUInt8(0);
  }
  u16(): number {
    return this.take(2).readUInt16LE(0);
  }
  u32(): number {
    return this.take(4).readUInt32LE(0);
  }
  u64(): bigint {
    return this.take(8).readBigUInt64LE(0);
  }
  i64(): bigint {
    return this.take(8).readBigInt64LE(0);
  }
  pubkey(): PublicKey {
    return new PublicKey(this.take(32));
  }
  string(): string {
    return this.take(this.u32()).toString('utf8');
  }
  fixedString(capacity: number): string {
    const len = this.u32();
    const slot = this.take(capacity);
    if (len > capacity) throw new RangeError('string length exceeds its slot');
    return slot.subarray(0, len).toString('utf8');
  }
  /** Every byte consumed: trailing bytes mean a malformed instruction. */
  done(): boolean {
    return this.offset === this.data.length;
  }
}
