/** Signing as a wallet's `signMessage` does: Ed25519 over the bytes with the keypair's 32-byte seed. */
import { createPrivateKey, sign } from 'node:crypto';
import type { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';

export function signText(keypair: Keypair, text: string | Uint8Array): Uint8Array {
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(keypair.secretKey.subarray(0, 32))]);
  return sign(null, typeof text === 'string' ? Buffer.from(text, 'utf8') : text, createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }));
}

export const signTextBase58 = (keypair: Keypair, text: string | Uint8Array): string => bs58.encode(signText(keypair, text));
