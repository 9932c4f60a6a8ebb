/**
 * Finds an order's signature proof through instruction introspection, as a deployed program
 * would with `load_instruction_at_checked`: the named instruction of this transaction must be
 * the Ed25519 program's, its named entry must carry its public key and message inline (the
 * precompile verified that signature before anything executed), and the message must be the
 * exact text a wallet signs for an order: `PMX Order:\n` + lowercase hex of the 92 bytes.
 */
import {
  decodeOrderMessage,
  ED25519_PROGRAM_ID,
  ED25519_PUBKEY_SIZE,
  ED25519_SELF_INDEX,
  ed25519SignatureCount,
  ORDER_MESSAGE_LENGTH,
  ORDER_TEXT_PREFIX,
  type OrderMessage,
  readEd25519Offsets,
} from '@pmx/programs';
import { InstructionsSysvarError, loadInstructionAt, type SysvarInstruction } from '../../instructions-sysvar.js';

export const ORDER_TEXT_LENGTH = ORDER_TEXT_PREFIX.length + 2 * ORDER_MESSAGE_LENGTH;

export type ProofResult =
  | { ok: true; bytes: Uint8Array; message: OrderMessage }
  | { ok: false; error: 'OrderSignatureMissing' | 'InvalidOrderMessage'; detail: string };

const missing = (detail: string): ProofResult => ({ ok: false, error: 'OrderSignatureMissing', detail });

const PREFIX = Buffer.from(ORDER_TEXT_PREFIX, 'latin1'); // ASCII: its UTF-8 bytes

/** A lowercase hex digit's value, or -1. */
function nibble(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/**
 * The 92 bytes the text encodes, or null unless it is exactly prefix + lowercase hex (the only
 * text `orderSigningBytes` makes of them). Read in one pass: it was a copy, a string, a regex,
 * a hex decode and the whole text made again to compare (test/exchange/order-proof-text.test.ts).
 */
export function parseOrderText(text: Uint8Array): Uint8Array | null {
  if (text.length !== ORDER_TEXT_LENGTH) return null;
  for (let i = 0; i < PREFIX.length; i++) if (text[i] !== PREFIX[i]) return null;
  const bytes = new Uint8Array(ORDER_MESSAGE_LENGTH);
  for (let i = 0, at = PREFIX.length; i < ORDER_MESSAGE_LENGTH; i++, at += 2) {
    const hi = nibble(text[at]!);
    const lo = nibble(text[at + 1]!);
    if (hi < 0 || lo < 0) return null;
    bytes[i] = (hi << 4) | lo;
  }
  return bytes;
}

export function readOrderProof(sysvar: Uint8Array, proofIx: number, entry: number): ProofResult {
  let ix: SysvarInstruction;
  try {
    ix = loadInstructionAt(sysvar, proofIx);
  } catch (e) {
    if (e instanceof InstructionsSysvarError) return missing(e.message);
    throw e;
  }
  if (!ix.programId.equals(ED25519_PROGRAM_ID)) return missing(`instruction ${proofIx} is not the Ed25519 program`);
  const offsets = entry < ed25519SignatureCount(ix.data) ? readEd25519Offsets(ix.data, entry) : null;
  if (!offsets) return missing(`instruction ${proofIx} has no signature ${entry}`);
  const inline = (i: number) => i === ED25519_SELF_INDEX || i === proofIx;
  if (
    !inline(offsets.signatureInstructionIndex) ||
    !inline(offsets.publicKeyInstructionIndex) ||
    !inline(offsets.messageInstructionIndex)
  ) {
    return missing('the proof must carry its signature, key and message in the Ed25519 instruction itself');
  }
  const { publicKeyOffset: pk, messageDataOffset: at, messageDataSize: size } = offsets;
  if (pk + ED25519_PUBKEY_SIZE > ix.data.length || at + size > ix.data.length) return missing('proof offsets out of range');
  const bytes = parseOrderText(ix.data.subarray(at, at + size));
  if (!bytes) return { ok: false, error: 'InvalidOrderMessage', detail: 'the signed text is not an order message' };
  let message: OrderMessage;
  try {
    message = decodeOrderMessage(bytes);
  } catch (e) {
    return { ok: false, error: 'InvalidOrderMessage', detail: (e as Error).message };
  }
  if (!Buffer.from(ix.data.subarray(pk, pk + ED25519_PUBKEY_SIZE)).equals(message.owner))
    return missing("the order was signed by another key than its owner's");
  return { ok: true, bytes, message };
}

/** Terms a stored order must have: a price a fill can use, something to fill. */
export function orderTermsValid(m: OrderMessage): boolean {
  return m.priceBps >= 1 && m.priceBps <= 10_000 && m.quantity >= 1n;
}
