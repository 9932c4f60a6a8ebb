/**
 * Pure transaction assembly for write endpoints: an unsigned transaction whose fee payer is the
 * user, serialized to base64 with empty signature slots. Family B returns legacy messages because
 * its clients use `Transaction.from`, and `VersionedTransaction.deserialize` reads them too; the
 * client signs and submits the bytes unchanged.
 */
import { Transaction, type PublicKey, type TransactionInstruction } from '@solana/web3.js';
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
