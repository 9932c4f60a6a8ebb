/**
 * Every outbound transaction carries a memo naming its outbound row. Two intents that move the
 * same thing (two deliveries of the same amount to the same wallet) would otherwise build
 * byte-identical transactions whenever they share a blockhash, and the cluster would drop the
 * second as a duplicate of the first: one payment, one delivery missing.
 *
 * A builder whose own instruction can carry bytes it ignores may name the row there instead:
 * the exchange's settle instruction has a 16-byte tag (`outboundTag`: the row id's own bytes),
 * 16 bytes against the memo's 84 (its data and its program's key), which lets a settle
 * transaction carry one more fill with its order's proof.
 */
import { PublicKey, TransactionInstruction } from '@solana/web3.js';

export const MEMO_PROGRAM_ID = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

export function outboundMemoData(outboundId: string): Buffer {
  return Buffer.from(`pmx-outbound:${outboundId}`, 'utf8');
}

export function outboundMemoInstruction(outboundId: string): TransactionInstruction {
  return new TransactionInstruction({ programId: MEMO_PROGRAM_ID, keys: [], data: outboundMemoData(outboundId) });
}

/** The outbound row id (a UUID) as its 16 bytes, for an instruction's tag field. */
export function outboundTag(outboundId: string): Uint8Array {
  const hex = outboundId.replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new RangeError(`outbound id ${outboundId} is not a UUID`);
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

/**
 * The sender refuses bytes that name neither way the row: a builder that forgot it could lose a
 * transfer. (Sixteen given bytes appearing by chance elsewhere in a transaction: about 2^-115.)
 */
export function namesOutbound(raw: Uint8Array, outboundId: string): boolean {
  const bytes = Buffer.from(raw);
  return bytes.includes(outboundMemoData(outboundId)) || bytes.includes(Buffer.from(outboundTag(outboundId)));
}
