/**
 * Pure transaction assembly for write endpoints: an unsigned transaction whose fee payer is the
 * user, serialized to base64 with empty signature slots. Family B returns legacy messages because
 * its clients use `Transaction.from`, and `VersionedTransaction.deserialize` reads them too; the
 * client signs and submits the bytes unchanged.
 */
import {
  TransactionMessage,
  VersionedTransaction,
  type AddressLookupTableAccount,
  type PublicKey,
  type TransactionInstruction,
} from '@solana/web3.js';
import type { BlockhashWithExpiry } from './chain-client.js';
import { compileLegacyMessage, PACKET_DATA_SIZE, unsignedWireBytes } from '@pmx/programs';

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
  const bytes = unsignedWireBytes(compileLegacyMessage(feePayer, instructions, recent.blockhash));
  if (bytes.length > PACKET_DATA_SIZE) throw new Error(`Transaction too large: ${bytes.length} > ${PACKET_DATA_SIZE}`);
  return { transaction: bytes.toString('base64'), blockhash: recent.blockhash, lastValidBlockHeight: recent.lastValidBlockHeight };
}

/**
 * The same as a versioned (v0) transaction, which Family C returns (clients read it with
 * `VersionedTransaction.deserialize`, sign it and send the bytes). Lookup tables, when given,
 * shorten the account list; the caller checks the size first (`v0TransactionSize`).
 */
export function assembleUnsignedV0Transaction(
  feePayer: PublicKey,
  instructions: TransactionInstruction[],
  recent: BlockhashWithExpiry,
  lookupTables: AddressLookupTableAccount[] = [],
): UnsignedTransaction {
  const message = new TransactionMessage({ payerKey: feePayer, recentBlockhash: recent.blockhash, instructions }).compileToV0Message(
    lookupTables,
  );
  const bytes = new VersionedTransaction(message).serialize();
  return {
    transaction: Buffer.from(bytes).toString('base64'),
    blockhash: recent.blockhash,
    lastValidBlockHeight: recent.lastValidBlockHeight,
  };
}

/** The wire size of a v0 transaction of these instructions (signature slots included). */
export function v0TransactionSize(
  feePayer: PublicKey,
  instructions: TransactionInstruction[],
  lookupTables: AddressLookupTableAccount[] = [],
): number {
  const message = new TransactionMessage({
    payerKey: feePayer,
    recentBlockhash: '11111111111111111111111111111111',
    instructions,
  }).compileToV0Message(lookupTables);
  return new VersionedTransaction(message).serialize().length;
}

/**
 * The wire size these instructions would have as one transaction paid by `feePayer`: the
 * signature count, one 64-byte slot per signer, and the message. The blockhash is a fixed 32
 * bytes, so any value gives the same size; builders check it before reserving anything.
 */
export function transactionSize(feePayer: PublicKey, instructions: TransactionInstruction[]): number {
  return unsignedWireBytes(compileLegacyMessage(feePayer, instructions, '11111111111111111111111111111111')).length;
}
