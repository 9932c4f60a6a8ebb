/**
 * Every outbound transaction carries a memo naming its outbound row. Two intents that move the
 * same thing (two deliveries of the same amount to the same wallet) would otherwise build
 * byte-identical transactions whenever they share a blockhash, and the cluster would drop the
 * second as a duplicate of the first: one payment, one delivery missing.
 */
import { PublicKey, TransactionInstruction } from '@solana/web3.js';

export const MEMO_PROGRAM_ID = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

export function outboundMemoData(outboundId: string): Buffer {
  return Buffer.from(`pmx-outbound:${outboundId}`, 'utf8');
}

export function outboundMemoInstruction(outboundId: string): TransactionInstruction {
  return new TransactionInstruction({ programId: MEMO_PROGRAM_ID, keys: [], data: outboundMemoData(outboundId) });
}

/** The sender refuses bytes without the memo: a builder that forgot it could lose a transfer. */
export function hasOutboundMemo(raw: Uint8Array, outboundId: string): boolean {
  return Buffer.from(raw).includes(outboundMemoData(outboundId));
}
