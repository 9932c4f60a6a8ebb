/**
 * The platform's fee payer seen as the x402 Foundation's `FacilitatorSvmSigner`, over this
 * daemon's chain port, so that their `exact` verification runs against whatever cluster the
 * daemon uses (the embedded one included). The daemon co-signs, records and sends payments itself
 * (settle-standard-payment.ts); verification uses `getAddresses` and `simulateTransaction`, and
 * the other methods do what their names say over the same port.
 */
import { VersionedTransaction, type Keypair } from '@solana/web3.js';
import { signTransaction } from '@pmx/programs';
import type { FacilitatorSvmSigner } from '@x402/svm';
import type { Address } from '@solana/kit';
import bs58 from 'bs58';
import type { ChainClient } from '../../../chain/chain-client.js';
import { awaitSignature } from '../../../chain/confirmation.js';

/** Adds the fee payer's signature to a partially signed wire transaction (Ed25519 is deterministic: same bytes, same id). */
export function coSign(feePayer: Keypair, raw: Uint8Array): { signed: Uint8Array; signature: string } {
  const tx = VersionedTransaction.deserialize(raw);
  signTransaction(tx, [feePayer]);
  return { signed: tx.serialize(), signature: bs58.encode(tx.signatures[0]!) };
}

const CONFIRM_TIMEOUT_MS = 30_000;

export function feePayerSigner(chain: ChainClient, feePayer: Keypair): FacilitatorSvmSigner {
  const address = feePayer.publicKey.toBase58() as Address;
  return {
    getAddresses: () => [address],
    async signTransaction(transaction) {
      return Buffer.from(coSign(feePayer, Buffer.from(transaction, 'base64')).signed).toString('base64');
    },
    async simulateTransaction(transaction) {
      const result = await chain.simulateTransaction(Buffer.from(transaction, 'base64'));
      if (result.err !== null) throw new Error(`simulation failed: ${JSON.stringify(result.err)} ${result.logs.slice(-3).join(' | ')}`);
    },
    async sendTransaction(transaction) {
      return chain.sendRawTransaction(Buffer.from(transaction, 'base64'));
    },
    async confirmTransaction(signature) {
      const fate = await awaitSignature(chain, signature, { timeoutMs: CONFIRM_TIMEOUT_MS });
      if (fate !== 'ok') throw new Error(`transaction ${signature}: ${fate}`);
    },
  };
}
