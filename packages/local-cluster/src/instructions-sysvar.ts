/**
 * The instructions sysvar (`Sysvar1nstructions1111111111111111111111111`) in Solana's serialized
 * format (`solana-instructions-sysvar`): u16 LE instruction count, a u16 LE offset per
 * instruction, then per instruction u16 account count, per account a flags byte (bit 0 signer,
 * bit 1 writable) and the 32-byte key, the 32-byte program id, u16 data length and the data;
 * the last two bytes hold the index of the instruction executing now.
 *
 * The executor serializes a transaction once and sets the current index before each handler;
 * the decoders below are what a program reads it with (`load_current_index_checked`,
 * `load_instruction_at_checked`), so the reference programs introspect the real bytes.
 */
import { PublicKey, SYSVAR_INSTRUCTIONS_PUBKEY, type AccountMeta } from '@solana/web3.js';
import { bytesOf } from '@pmx/programs';

export const SYSVAR_INSTRUCTIONS_ID = SYSVAR_INSTRUCTIONS_PUBKEY;
/** Owner of every sysvar account. */
export const SYSVAR_OWNER_ID = new PublicKey('Sysvar1111111111111111111111111111111111111');

export interface SysvarInstruction {
  programId: PublicKey;
  keys: AccountMeta[];
  data: Uint8Array;
}

const IS_SIGNER = 1;
const IS_WRITABLE = 2;

/** Serializes the transaction's instructions, with room for the current index (set to 0). */
export function serializeInstructionsSysvar(instructions: readonly SysvarInstruction[]): Buffer {
  let size = 2 + 2 * instructions.length + 2;
  for (const ix of instructions) size += 2 + 33 * ix.keys.length + 32 + 2 + ix.data.length;
  const out = Buffer.alloc(size);
  out.writeUInt16LE(instructions.length, 0);
  let at = 2 + 2 * instructions.length;
  instructions.forEach((ix, i) => {
    out.writeUInt16LE(at, 2 + 2 * i);
    out.writeUInt16LE(ix.keys.length, at);
    at += 2;
    for (const k of ix.keys) {
      out[at] = (k.isSigner ? IS_SIGNER : 0) | (k.isWritable ? IS_WRITABLE : 0);
      out.set(bytesOf(k.pubkey), at + 1); // bytes kept per key object: toBuffer runs bn.js
      at += 33;
    }
    out.set(bytesOf(ix.programId), at);
    out.writeUInt16LE(ix.data.length, at + 32);
    out.set(ix.data, at + 34);
    at += 34 + ix.data.length;
  });
  return out;
}

/** A copy of the sysvar data with the current instruction index stored (the runtime's `store_current_index`). */
export function withCurrentIndex(data: Buffer, index: number): Buffer {
  const out = Buffer.from(data);
  out.writeUInt16LE(index, out.length - 2);
  return out;
}

/** Thrown on data that is not a well-formed instructions sysvar (a program reports InvalidArgument). */
export class InstructionsSysvarError extends RangeError {}

function need(cond: boolean, what: string): void {
  if (!cond) throw new InstructionsSysvarError(`instructions sysvar: ${what}`);
}

export function loadCurrentIndex(data: Uint8Array): number {
  need(data.length >= 2, 'too short');
  return data[data.length - 2]! | (data[data.length - 1]! << 8);
}

export function loadInstructionCount(data: Uint8Array): number {
  need(data.length >= 2, 'too short');
  return data[0]! | (data[1]! << 8);
}

/** The instruction at `index`, decoded from the sysvar's bytes. */
export function loadInstructionAt(data: Uint8Array, index: number): SysvarInstruction {
  const b = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  need(index >= 0 && index < loadInstructionCount(b), `no instruction ${index}`);
  need(b.length >= 4 + 2 * index, 'truncated offsets');
  let at = b.readUInt16LE(2 + 2 * index);
  need(at + 2 <= b.length, 'truncated instruction');
  const accounts = b.readUInt16LE(at);
  at += 2;
  need(at + 33 * accounts + 34 <= b.length, 'truncated accounts');
  const keys: AccountMeta[] = [];
  for (let i = 0; i < accounts; i++, at += 33) {
    const flags = b[at]!;
    keys.push({
      pubkey: new PublicKey(b.subarray(at + 1, at + 33)),
      isSigner: (flags & IS_SIGNER) !== 0,
      isWritable: (flags & IS_WRITABLE) !== 0,
    });
  }
  const programId = new PublicKey(b.subarray(at, at + 32));
  const len = b.readUInt16LE(at + 32);
  need(at + 34 + len <= b.length, 'truncated data');
  return { programId, keys, data: b.subarray(at + 34, at + 34 + len) };
}
