/**
 * Sends a transaction signed by platform keys and waits until it is confirmed or its blockhash
 * expires. For one-off bootstrap steps (initialising a program's config); money-moving platform
 * transfers go through the persisted outbound queue instead (src/services/outbound).
 */
import { Transaction, type Keypair, type TransactionInstruction } from '@solana/web3.js';
import type { ChainClient } from '../chain/chain-client.js';

export async function sendAndConfirmPlatformTransaction(
  chain: ChainClient,
  instructions: TransactionInstruction[],
  signers: [Keypair, ...Keypair[]],
  timeoutMs = 60_000,
): Promise<string> {
  const recent = await chain.getLatestBlockhash();
  const tx = new Transaction({ feePayer: signers[0].publicKey, blockhash: recent.blockhash, lastValidBlockHeight: recent.lastValidBlockHeight });
  tx.add(...instructions);
  tx.sign(...signers);
  const signature = await chain.sendRawTransaction(tx.serialize());
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [status] = await chain.getSignatureStatuses([signature]);
    if (status?.err) throw new Error(`transaction ${signature} failed: ${JSON.stringify(status.err)}`);
    if (status && status.confirmationStatus !== 'processed') return signature;
    if ((await chain.getBlockHeight()) > recent.lastValidBlockHeight) throw new Error(`transaction ${signature} expired before confirmation`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`transaction ${signature} not confirmed within ${timeoutMs} ms`);
}
