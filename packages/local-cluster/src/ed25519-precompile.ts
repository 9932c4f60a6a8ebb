/**
 * The Ed25519 precompile, verified as an Agave node does before it executes anything: every
 * Ed25519-program instruction of the transaction has its signatures checked (strictly), with
 * offsets that may point into any instruction of the transaction. A failure fails the whole
 * transaction with `{"InstructionError":[i,{"Custom":code}]}`, code a PrecompileError.
 *
 * LiteSVM does this itself for transactions it receives whole. Transactions that mix builtins
 * with a reference program are executed in pieces (runs of builtins as internal transactions),
 * where an offset naming another instruction would point at the wrong one; so the executor
 * verifies them here, against the full instruction list, and does not hand them to LiteSVM.
 * Each verified signature is charged like a transaction signature (Agave's signature fee).
 */
import {
  ED25519_OFFSETS_SIZE,
  ED25519_OFFSETS_START,
  ED25519_PROGRAM_ID,
  ED25519_PUBKEY_SIZE,
  ED25519_SELF_INDEX,
  ED25519_SIGNATURE_SIZE,
  isOnCurveCached,
  readEd25519Offsets,
} from '@pmx/programs';
import type { ParsedTransaction } from './parsed-transaction.js';
import { isSmallOrderEncoding, verifyEd25519 } from './signature-verifier.js';

export const ED25519_PROGRAM = ED25519_PROGRAM_ID.toBase58();

/** Agave's PrecompileError, numbered as it appears in `Custom(n)`. */
export const PRECOMPILE_ERROR = {
  InvalidPublicKey: 0,
  InvalidRecoveryId: 1,
  InvalidSignature: 2,
  InvalidDataOffsets: 3,
  InvalidInstructionDataSize: 4,
} as const;

type Slice = Uint8Array | number;

function dataSlice(own: Uint8Array, all: readonly Uint8Array[], index: number, offset: number, size: number): Slice {
  const source = index === ED25519_SELF_INDEX ? own : all[index];
  if (!source) return PRECOMPILE_ERROR.InvalidDataOffsets;
  if (offset + size > source.length) return PRECOMPILE_ERROR.InvalidDataOffsets;
  return source.subarray(offset, offset + size);
}

/** Verifies one Ed25519 instruction's data; returns the PrecompileError code or null when valid. */
export function verifyEd25519Data(data: Uint8Array, instructionDatas: readonly Uint8Array[]): number | null {
  if (data.length < ED25519_OFFSETS_START) return PRECOMPILE_ERROR.InvalidInstructionDataSize;
  const count = data[0]!;
  if (count === 0 && data.length > ED25519_OFFSETS_START) return PRECOMPILE_ERROR.InvalidInstructionDataSize;
  if (data.length < ED25519_OFFSETS_START + count * ED25519_OFFSETS_SIZE) return PRECOMPILE_ERROR.InvalidInstructionDataSize;
  for (let i = 0; i < count; i++) {
    const o = readEd25519Offsets(data, i)!;
    const signature = dataSlice(data, instructionDatas, o.signatureInstructionIndex, o.signatureOffset, ED25519_SIGNATURE_SIZE);
    if (typeof signature === 'number') return signature;
    const pubkey = dataSlice(data, instructionDatas, o.publicKeyInstructionIndex, o.publicKeyOffset, ED25519_PUBKEY_SIZE);
    if (typeof pubkey === 'number') return pubkey;
    // ed25519-dalek decodes every small-order encoding (negative zero, y ≥ p included), so Agave
    // refuses such a key at verification (InvalidSignature), not at decoding: so do we.
    if (!isSmallOrderEncoding(pubkey) && !isOnCurveCached(pubkey)) return PRECOMPILE_ERROR.InvalidPublicKey;
    const message = dataSlice(data, instructionDatas, o.messageInstructionIndex, o.messageDataOffset, o.messageDataSize);
    if (typeof message === 'number') return message;
    if (!verifyEd25519(message, signature, pubkey)) return PRECOMPILE_ERROR.InvalidSignature;
  }
  return null;
}

/** The first failing Ed25519 instruction of the transaction, or null when all verify. */
export function verifyEd25519Precompiles(p: ParsedTransaction): { index: number; code: number } | null {
  const datas = p.instructions.map((ix) => ix.data);
  for (let i = 0; i < p.instructions.length; i++) {
    if (p.accountKeys[p.instructions[i]!.programIndex] !== ED25519_PROGRAM) continue;
    const code = verifyEd25519Data(p.instructions[i]!.data, datas);
    if (code !== null) return { index: i, code };
  }
  return null;
}

/** Ed25519 signatures the transaction's precompile instructions verify: each is charged like a transaction signature. */
export function precompileSignatureCount(p: ParsedTransaction): number {
  let n = 0;
  for (const ix of p.instructions) if (p.accountKeys[ix.programIndex] === ED25519_PROGRAM) n += ix.data[0] ?? 0;
  return n;
}
