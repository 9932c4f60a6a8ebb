/**
 * Ed25519 verification of transaction signatures with Node's crypto (OpenSSL), which is ~70x
 * faster than tweetnacl. KeyObjects are cached per public key because building one dominates the
 * cost of a verify for the few hot wallets (fee payers, operators) that sign most transactions.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';

const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const CACHE_LIMIT = 10_000;
const cache = new Map<string, KeyObject>();

function keyObject(pubkey: Uint8Array): KeyObject {
  const id = Buffer.from(pubkey).toString('base64');
  let key = cache.get(id);
  if (!key) {
    key = createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, pubkey]), format: 'der', type: 'spki' });
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(id, key);
  }
  return key;
}

export function verifyEd25519(message: Uint8Array, signature: Uint8Array, pubkey: Uint8Array): boolean {
  if (signature.length !== 64 || pubkey.length !== 32) return false;
  try {
    return verify(null, message, keyObject(pubkey), signature);
  } catch {
    // A point that is not on the curve cannot have signed anything.
    return false;
  }
}
