/**
 * Account and instruction-data layouts of both programs, each declared once as a list of
 * @solana/kit codecs: the list gives the encoder, the decoder, the size and every field's offset
 * (the memcmp filters and docs/programs.md use the same numbers, so they cannot drift apart).
 * Decoders throw RangeError for anything malformed (kit's own codec errors included), so callers
 * map one error type: the reference programs answer InvalidAccount or InstructionDidNotDeserialize.
 */
import {
  getConstantCodec,
  getHiddenPrefixCodec,
  getStructCodec,
  isSolanaError,
  padRightCodec,
  type Codec,
  type Decoder,
  type Encoder,
  type FixedSizeCodec,
  type FixedSizeDecoder,
  type FixedSizeEncoder,
} from '@solana/kit';

/** Any codec / any fixed-size codec, whatever it encodes (encoders are contravariant, decoders covariant). */
type AnyCodec = Encoder<never> & Decoder<unknown>;
type AnyFixedCodec = FixedSizeEncoder<never> & FixedSizeDecoder<unknown>;
type Field<C> = readonly [name: string, codec: C];
type Fields<C> = readonly Field<C>[];
/** What the encoder of a field list accepts / what its decoder returns (as kit's getStructCodec). */
export type EncodedFrom<F extends Fields<AnyCodec>> = {
  [E in F[number] as E[0]]: E[1] extends Encoder<infer T> ? T : never;
};
export type DecodedTo<F extends Fields<AnyCodec>> = {
  [E in F[number] as E[0]]: E[1] extends Decoder<infer T> ? T : never;
};

/** Runs a kit codec, turning its SolanaError into the RangeError the programs' callers expect. */
export function rangeErrors<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (isSolanaError(e)) throw new RangeError(e.message, { cause: e });
    throw e;
  }
}

/** `n` zero bytes after a field (padding or reserved space): written as zeros, skipped on decode. */
export function thenReserved<TFrom, TTo extends TFrom>(codec: FixedSizeCodec<TFrom, TTo>, n: number): FixedSizeCodec<TFrom, TTo> {
  return padRightCodec(codec, n);
}

export interface AccountLayout<F extends Fields<AnyFixedCodec>> {
  readonly name: string;
  readonly discriminator: Buffer;
  /** Total size in bytes (what the program allocates, the `dataSize` filter). */
  readonly size: number;
  /** Byte offset of each field (the discriminator at 0). */
  readonly offsets: Readonly<Record<F[number][0] | 'discriminator', number>>;
  encode(value: EncodedFrom<F>): Buffer;
  /** Refuses (RangeError) data of another size or discriminator, so a foreign account is never misread. */
  decode(data: Uint8Array): DecodedTo<F>;
}

/** A fixed-size account: 8-byte discriminator, the fields in order, then `reserved` zero bytes. */
export function accountLayout<const F extends Fields<AnyFixedCodec>>(
  name: string,
  discriminator: Buffer,
  fields: F,
  reserved = 0,
): AccountLayout<F> {
  const struct = getStructCodec(fields as unknown as Fields<FixedSizeCodec<unknown>>);
  const codec = thenReserved(getHiddenPrefixCodec(struct, [getConstantCodec(discriminator)]), reserved);
  const offsets: Record<string, number> = { discriminator: 0 };
  let at = discriminator.length;
  for (const [field, c] of fields) {
    offsets[field] = at;
    at += c.fixedSize;
  }
  return {
    name,
    discriminator,
    size: codec.fixedSize,
    offsets: offsets as AccountLayout<F>['offsets'],
    encode: (value) => Buffer.from(rangeErrors(() => codec.encode(value))),
    decode(data) {
      if (data.length !== codec.fixedSize || !Buffer.from(data.subarray(0, 8)).equals(discriminator)) {
        throw new RangeError(`not a ${name} account`);
      }
      return rangeErrors(() => codec.decode(data)) as DecodedTo<F>;
    },
  };
}

export interface InstructionLayout<F extends Fields<AnyCodec>> {
  readonly discriminator: Buffer;
  encode(args: EncodedFrom<F>): Buffer;
  /** Refuses (RangeError) another discriminator, short data and trailing bytes. */
  decode(data: Uint8Array): DecodedTo<F>;
}

/** Instruction data: 8-byte discriminator, then the Borsh-encoded arguments in order. */
export function instructionLayout<const F extends Fields<AnyCodec>>(discriminator: Buffer, fields: F): InstructionLayout<F> {
  const codec = getHiddenPrefixCodec(getStructCodec(fields as unknown as Fields<Codec<unknown>>), [
    getConstantCodec(discriminator),
  ]) as Codec<unknown>;
  return {
    discriminator,
    encode: (args) => Buffer.from(rangeErrors(() => codec.encode(args))),
    decode(data) {
      const [value, end] = rangeErrors(() => codec.read(data, 0));
      if (end !== data.length) throw new RangeError(`${data.length - end} trailing bytes`);
      return value as DecodedTo<F>;
    },
  };
}
