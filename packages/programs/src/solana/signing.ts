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
import { shortvec } from './legacy-message.js';

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

/**
 * `signTransaction` then `transaction.serialize()`, with the message serialized once (web3.js
 * serializes it again, then copies everything through buffer-layout) and the signer found without
 * base58 (web3.js's addSignature encodes the key for its error message on every call): the keeper
 * signs and stores every settle transaction this way. The same bytes (test/signing.test.ts).
 */
export function signAndSerialize(transaction: VersionedTransaction, signers: readonly Keypair[]): Uint8Array {
  const message = transaction.message.serialize();
  const required = transaction.message.header.numRequiredSignatures;
  const keys = transaction.message.staticAccountKeys;
  for (const signer of signers) {
    let at = -1;
    for (let i = 0; i < required && at < 0; i++) if (keys[i]!.equals(signer.publicKey)) at = i;
    if (at < 0) throw new Error(`Can not add signature; \`${signer.publicKey.toBase58()}\` is not required to sign this transaction`);
    transaction.signatures[at] = sign(null, message, privateKeyOf(signer));
  }
  const count = shortvec(transaction.signatures.length);
  const out = new Uint8Array(count.length + 64 * transaction.signatures.length + message.length);
  // web3.js writes into 2048 bytes and fails past them; so does this.
  if (out.length > 2048) throw new RangeError(`a transaction of ${out.length} bytes does not serialize`);
  out.set(count, 0);
  let offset = count.length;
  for (const signature of transaction.signatures) {
    if (signature.length !== 64) throw new RangeError('Signature must be 64 bytes long');
    out.set(signature, offset);
    offset += 64;
  }
  out.set(message, offset);
  return out;
}
