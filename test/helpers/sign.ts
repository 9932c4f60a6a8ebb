/** Signing as a wallet's `signMessage` does: Ed25519 over the bytes with the keypair's 32-byte seed. */
import { createHash, createPrivateKey, sign } from 'node:crypto';
import type { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';

export function signText(keypair: Keypair, text: string | Uint8Array): Uint8Array {
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(keypair.secretKey.subarray(0, 32))]);
  return sign(
    null,
    typeof text === 'string' ? Buffer.from(text, 'utf8') : text,
    createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }),
  );
}

export const signTextBase58 = (keypair: Keypair, text: string | Uint8Array): string => bs58.encode(signText(keypair, text));

const GROUP_ORDER = 2n ** 252n + 27742317777372353535851937790883648493n;
const littleEndian = (bytes: Uint8Array): bigint => BigInt(`0x${Buffer.from(bytes).reverse().toString('hex') || '0'}`);
const toLittleEndian32 = (n: bigint): Buffer => Buffer.from(n.toString(16).padStart(64, '0'), 'hex').reverse();

/**
 * A signature made with nonce r = 0 (issue 25's hostile trader): R is the identity point
 * (encoded 01 00…00) and S = H(R‖A‖M)·a mod L, with a the keypair's clamped secret scalar.
 * Cofactorless verifiers that do not refuse a small-order R (node's crypto.verify) accept it;
 * verify_strict, and so Solana's Ed25519 program, refuse it.
 */
export function zeroNonceSignature(keypair: Keypair, text: string | Uint8Array): Uint8Array {
  const message = typeof text === 'string' ? Buffer.from(text, 'utf8') : Buffer.from(text);
  const expanded = createHash('sha512').update(keypair.secretKey.subarray(0, 32)).digest();
  expanded[0]! &= 248;
  expanded[31]! &= 127;
  expanded[31]! |= 64;
  const a = littleEndian(expanded.subarray(0, 32));
  const r = Buffer.alloc(32);
  r[0] = 1;
  const h = littleEndian(createHash('sha512').update(r).update(keypair.publicKey.toBytes()).update(message).digest()) % GROUP_ORDER;
  return Buffer.concat([r, toLittleEndian32((h * a) % GROUP_ORDER)]);
}

/** The identity point as a public key (01 00…00, base58 `4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofM`). */
export const IDENTITY_PUBKEY = Buffer.concat([Buffer.from([1]), Buffer.alloc(31)]);
/** R = identity, S = 0: with the identity key, cofactorless verifiers accept it for every message. */
export const IDENTITY_SIGNATURE = Buffer.concat([Buffer.from([1]), Buffer.alloc(63)]);
