/**
 * Sends a transaction signed by platform keys and waits until it is confirmed or its blockhash
 * expires. For one-off bootstrap steps (initialising a program's config); money-moving platform
 * transfers go through the persisted outbound queue instead (src/services/outbound).
 */
import { Transaction, type Keypair, type TransactionInstruction } from '@solana/web3.js';
import type { ChainClient } from '../chain/chain-client.js';
import { awaitSignature } from '../chain/confirmation.js';

export async function sendAndConfirmPlatformTransaction(
  chain: ChainClient,
  instructions: TransactionInstruction[],
  signers: [Keypair, ...Keypair[]],
  timeoutMs = 60_000,
): Promise<string> {
  const recent = await chain.getLatestBlockhash();
  const tx = new Transaction({
    feePayer: signers[0].publicKey,
    blockhash: recent.blockhash,
    lastValidBlockHeight: recent.lastValidBlockHeight,
  });
  tx.add(...instructions);
  tx.sign(...signers);
  const signature = await chain.sendRawTransaction(tx.serialize());
  const fate = await awaitSignature(chain, signature, { timeoutMs, pollMs: 200, lastValidBlockHeight: recent.lastValidBlockHeight });
  if (fate === 'ok') return signature;
  throw new Error(
    `transaction ${signature} ${fate === 'err' ? 'failed on chain' : fate === 'expired' ? 'expired before confirmation' : `not confirmed within ${timeoutMs} ms`}`,
  );
}
