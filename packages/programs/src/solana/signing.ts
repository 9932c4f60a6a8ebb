/**
 * Signs v0 transactions with Node's crypto (OpenSSL) instead of web3.js's `sign`, which runs
 * Ed25519 in JavaScript (noble): the keeper's operator signs every settlement transaction, and
 * that was 2.4 % of the keeper's process under load. Ed25519 is deterministic, so the bytes are
 * the same as web3.js's (test/signing.test.ts). A signer's private KeyObject is made once (it
 * costs about as much as a signature) and kept as long as its Keypair lives (WeakMap): platform
 * keys are held in memory anyway, never logged.
 *
 * Kept because bench/solana-primitives.bench.ts (2026-11-26, 2 cores shared, load ~15, Node 20;
 * median of 3 runs, one signer, a 4-transfer v0 message): this 4,000 signatures/s; node's
 * crypto.sign alone 4,600 (within the noise: 0.95× to 1.16× of this per run, so the wrapper costs
 * nothing); web3.js VersionedTransaction.sign 550 (this 7×); kit signBytes 1,400 awaited (this
 * 2.9×, 2.5× to 6.8× per run: WebCrypto runs each signature as an async job, and the five callers
 * sign synchronously).
 */
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import type { Keypair, VersionedTransaction } from '@solana/web3.js';

/** DER header of a PKCS#8 Ed25519 private key; the 32-byte seed follows. */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const keys = new WeakMap<Keypair, KeyObject>();

function privateKeyOf(signer: Keypair): KeyObject {
  let key = keys.get(signer);
  if (!key) {
    key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, signer.secretKey.subarray(0, 32)]), format: 'der', type: 'pkcs8' });
    keys.set(signer, key);
  }
  return key;
}

/** As `transaction.sign(signers)`: throws when a signer is not one of the message's signers. */
export function signTransaction(transaction: VersionedTransaction, signers: readonly Keypair[]): void {
  const message = transaction.message.serialize();
  for (const signer of signers) transaction.addSignature(signer.publicKey, sign(null, message, privateKeyOf(signer)));
}
