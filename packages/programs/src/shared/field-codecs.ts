/**
 * Field codecs the layouts are built from, beyond kit's numbers: web3.js public keys, fixed byte
 * arrays as Buffers, Borsh strings (u32 length + UTF-8) and fixed-capacity string slots. Strings
 * keep their bytes exactly (no BOM or NUL stripping, unlike kit's default UTF-8 decoder), as the
 * deployed program would read them.
 */
import {
  addCodecSizePrefix,
  fixCodecSize,
  getBytesCodec,
  getU32Codec,
  getUtf8Codec,
  transformCodec,
  type FixedSizeCodec,
  type VariableSizeCodec,
} from '@solana/kit';
import { PublicKey } from '@solana/web3.js';

/** `n` raw bytes, decoded as a Buffer of its own (not a view into the account data). */
export function fixedBytesCodec(n: number): FixedSizeCodec<Uint8Array, Buffer> {
  return transformCodec(
    fixCodecSize(getBytesCodec(), n),
    (b: Uint8Array) => {
      if (b.length !== n) throw new RangeError(`expected ${n} bytes, got ${b.length}`);
      return b;
    },
    (b) => Buffer.from(b),
  );
}

export const publicKeyCodec: FixedSizeCodec<PublicKey> = transformCodec(
  fixCodecSize(getBytesCodec(), 32),
  (k: PublicKey) => k.toBytes(),
  (b) => new PublicKey(b as Uint8Array),
);

const utf8 = getUtf8Codec({ ignoreBOM: true, removeNullCharacters: false });

/** A Borsh string: u32 byte length, then the UTF-8 bytes. */
export const borshStringCodec: VariableSizeCodec<string> = addCodecSizePrefix(utf8, getU32Codec());

/**
 * A string in a fixed slot of 4 + `capacity` bytes: u32 length, UTF-8 bytes, zero padding. Too
 * long a string is refused (a fixed-size codec alone would silently cut it).
 */
export function stringSlotCodec(capacity: number): FixedSizeCodec<string> {
  return fixCodecSize(
    transformCodec(borshStringCodec, (s: string) => {
      const bytes = Buffer.byteLength(s, 'utf8');
      if (bytes > capacity) throw new RangeError(`string of ${bytes} bytes exceeds ${capacity}`);
      return s;
    }),
    4 + capacity,
  );
}
