/**
 * Families B and C answer their writes with an unsigned transaction (base64; the caller is the
 * fee payer): these decode it for a wallet to sign, or sign it with keypairs, send it to the
 * cluster and wait for confirmation. Import from `@pmx/client/solana`: it needs @solana/web3.js
 * (an optional peer dependency), which the rest of the client does not.
 */
import { VersionedTransaction, type Commitment, type Connection, type Signer } from '@solana/web3.js';
import { fromBase64 } from '../signing/encoding.js';

/** The transaction as web3.js reads it (legacy or v0), e.g. for a wallet adapter's signTransaction. */
export function decodeTransaction(base64: string): VersionedTransaction {
  return VersionedTransaction.deserialize(fromBase64(base64));
}

/** Sends a signed transaction and waits until it is `commitment`; throws if it failed on chain. */
export async function sendAndConfirm(
  connection: Connection,
  tx: VersionedTransaction,
  commitment: Commitment = 'confirmed',
): Promise<string> {
  const signature = await connection.sendRawTransaction(tx.serialize());
  const { lastValidBlockHeight } = await connection.getLatestBlockhash(commitment);
  const result = await connection.confirmTransaction(
    { signature, blockhash: tx.message.recentBlockhash, lastValidBlockHeight },
    commitment,
  );
  if (result.value.err) throw new Error(`transaction ${signature} failed: ${JSON.stringify(result.value.err)}`);
  return signature;
}

/**
 * Signs the API's transaction with `signers` (the fee payer, i.e. the wallet named in the request,
 * first) after checking that the fee payer is theirs, sends it and waits for confirmation.
 */
export async function signAndSend(
  connection: Connection,
  base64: string,
  signers: Signer[],
  commitment: Commitment = 'confirmed',
): Promise<string> {
  const tx = decodeTransaction(base64);
  const feePayer = tx.message.staticAccountKeys[0];
  if (!feePayer || !signers.some((s) => s.publicKey.equals(feePayer)))
    throw new Error(`the fee payer ${feePayer?.toBase58()} is not among the signers`);
  tx.sign(signers);
  return sendAndConfirm(connection, tx, commitment);
}
