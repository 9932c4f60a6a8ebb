/**
 * The Ed25519 precompile's instruction data, as Agave lays it out
 * (`solana-ed25519-program`): a u8 count and a padding byte, then per signature 14 bytes of u16
 * LE offsets (signature, its instruction index, public key, its instruction index, message
 * offset, message size, its instruction index), then the bytes those offsets point at. An index
 * of u16::MAX means "this instruction's own data". Shared by the client that builds the
 * instruction, the embedded runtime that verifies it, and the program that introspects it.
 */
import { PublicKey, TransactionInstruction } from '@solana/web3.js';

export const ED25519_PROGRAM_ID = new PublicKey('Ed25519SigVerify111111111111111111111111111');
export const ED25519_OFFSETS_START = 2;
export const ED25519_OFFSETS_SIZE = 14;
export const ED25519_PUBKEY_SIZE = 32;
export const ED25519_SIGNATURE_SIZE = 64;
/** The instruction-index value that points at the Ed25519 instruction's own data. */
export const ED25519_SELF_INDEX = 0xffff;

export interface Ed25519Offsets {
  signatureOffset: number;
  signatureInstructionIndex: number;
  publicKeyOffset: number;
  publicKeyInstructionIndex: number;
  messageDataOffset: number;
  messageDataSize: number;
  messageInstructionIndex: number;
}

export interface Ed25519Entry {
  publicKey: Uint8Array;
  signature: Uint8Array;
  message: Uint8Array;
}

/** The number of signatures the data declares (0 when it is too short to say). */
export function ed25519SignatureCount(data: Uint8Array): number {
  return data.length < ED25519_OFFSETS_START ? 0 : data[0]!;
}

/** The offsets of entry `i`, or null when the data is too short to hold them. */
export function readEd25519Offsets(data: Uint8Array, i: number): Ed25519Offsets | null {
  const start = ED25519_OFFSETS_START + i * ED25519_OFFSETS_SIZE;
  if (i < 0 || start + ED25519_OFFSETS_SIZE > data.length) return null;
  const u16 = (k: number) => data[start + 2 * k]! | (data[start + 2 * k + 1]! << 8);
  return {
    signatureOffset: u16(0),
    signatureInstructionIndex: u16(1),
    publicKeyOffset: u16(2),
    publicKeyInstructionIndex: u16(3),
    messageDataOffset: u16(4),
    messageDataSize: u16(5),
    messageInstructionIndex: u16(6),
  };
}

/** Bytes needed for `entries` signatures whose messages total `messageBytes` (for size budgets). */
export function ed25519DataSize(entries: number, messageBytes: number): number {
  return ED25519_OFFSETS_START + entries * (ED25519_OFFSETS_SIZE + ED25519_PUBKEY_SIZE + ED25519_SIGNATURE_SIZE) + messageBytes;
}

/**
 * One Ed25519 instruction verifying every entry, all data inline (indices u16::MAX), laid out
 * offsets first, then per entry public key | signature | message.
 */
export function createEd25519Instruction(entries: readonly Ed25519Entry[]): TransactionInstruction {
  if (entries.length === 0 || entries.length > 255) throw new RangeError('an Ed25519 instruction holds 1 to 255 signatures');
  const size = ed25519DataSize(
    entries.length,
    entries.reduce((n, e) => n + e.message.length, 0),
  );
  if (size > 0xffff) throw new RangeError('Ed25519 instruction data exceeds u16 offsets');
  const data = Buffer.alloc(size);
  data[0] = entries.length;
  let at = ED25519_OFFSETS_START + entries.length * ED25519_OFFSETS_SIZE;
  entries.forEach((e, i) => {
    if (e.publicKey.length !== ED25519_PUBKEY_SIZE || e.signature.length !== ED25519_SIGNATURE_SIZE) {
      throw new RangeError('Ed25519 entries need a 32-byte public key and a 64-byte signature');
    }
    const pk = at;
    const sig = pk + ED25519_PUBKEY_SIZE;
    const msg = sig + ED25519_SIGNATURE_SIZE;
    const o = ED25519_OFFSETS_START + i * ED25519_OFFSETS_SIZE;
    for (const [k, v] of [sig, ED25519_SELF_INDEX, pk, ED25519_SELF_INDEX, msg, e.message.length, ED25519_SELF_INDEX].entries()) {
      data.writeUInt16LE(v, o + 2 * k);
    }
    data.set(e.publicKey, pk);
    data.set(e.signature, sig);
    data.set(e.message, msg);
    at = msg + e.message.length;
  });
  return new TransactionInstruction({ programId: ED25519_PROGRAM_ID, keys: [], data });
}
