/** Checks a base64 signature of `text` against a base58 address, with node's own Ed25519 (not the client's code). */
import { createPublicKey, verify } from 'node:crypto';
import { PublicKey } from '@solana/web3.js';

const SPKI_ED25519 = Buffer.from('302a300506032b6570032100', 'hex');

export function verifies(address: string, text: string | Uint8Array, signatureBase64: string): boolean {
  const key = createPublicKey({ key: Buffer.concat([SPKI_ED25519, new PublicKey(address).toBuffer()]), format: 'der', type: 'spki' });
  const message = typeof text === 'string' ? Buffer.from(text, 'utf8') : Buffer.from(text);
  return verify(null, message, key, Buffer.from(signatureBase64, 'base64'));
}
