/**
 * Pure transaction assembly for write endpoints: an unsigned transaction whose fee payer is the
 * user, serialized to base64 with empty signature slots. Family B returns legacy messages because
 * its clients use `Transaction.from`, and `VersionedTransaction.deserialize` reads them too; the
 * client signs and submits the bytes unchanged.
 */
import { PACKET_DATA_SIZE, Transaction, type PublicKey, type TransactionInstruction } from '@solana/web3.js';
import type { BlockhashWithExpiry } from './chain-client.js';

export interface UnsignedTransaction {
  /** base64 of the wire bytes with zeroed signatures. */
  transaction: string;
  blockhash: string;
  lastValidBlockHeight: number;
}

export function assembleUnsignedTransaction(
  feePayer: PublicKey,
  instructions: TransactionInstruction[],
  recent: BlockhashWithExpiry,
): UnsignedTransaction {
  const tx = new Transaction({ feePayer, blockhash: recent.blockhash, lastValidBlockHeight: recent.lastValidBlockHeight });
  tx.add(...instructions);
  const bytes = tx.serialize({ requireAllSignatures: false, verifySignatures: false });
  return { transaction: bytes.toString('base64'), blockhash: recent.blockhash, lastValidBlockHeight: recent.lastValidBlockHeight };
}

/** The largest serialized transaction a cluster accepts (1232 bytes: an IPv6 packet less headers). */
export const MAX_TRANSACTION_SIZE = PACKET_DATA_SIZE;

/**
 * The wire size these instructions would have as one transaction paid by `feePayer`: the
 * signature count, one 64-byte slot per signer, and the message. The blockhash is a fixed 32
 * bytes, so any value gives the same size; builders check it before reserving anything.
 */
export function transactionSize(feePayer: PublicKey, instructions: TransactionInstruction[]): number {
  const tx = new Transaction({ feePayer, blockhash: '11111111111111111111111111111111', lastValidBlockHeight: 0 });
  tx.add(...instructions);
  const message = tx.compileMessage();
  const signers = message.header.numRequiredSignatures;
  return (signers < 128 ? 1 : 2) + 64 * signers + message.serialize().length;
}
