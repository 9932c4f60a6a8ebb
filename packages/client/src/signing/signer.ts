/**
 * What the signing helpers sign with: anything that has a public key and signs bytes, e.g. a
 * browser wallet adapter (`{publicKey, signMessage}`), a remote signer, or a web3.js Keypair
 * through keypairSigner(). The API verifies plain Ed25519 signatures of the UTF-8 message text.
 */
import { base58Encode, toBase64 } from './encoding.js';

export interface MessageSigner {
  /** base58, or an object with toBase58() (web3.js PublicKey, wallet adapters). */
  publicKey: string | { toBase58(): string };
  /** Ed25519 signature (64 bytes) of exactly these bytes. */
  signMessage(message: Uint8Array): Promise<Uint8Array> | Uint8Array;
}

export function signerAddress(signer: MessageSigner): string {
  return typeof signer.publicKey === 'string' ? signer.publicKey : signer.publicKey.toBase58();
}

/** Signs the UTF-8 text and returns the signature in base64 (what every PMX route accepts). */
export async function signText(signer: MessageSigner, text: string): Promise<string> {
  const signature = await signer.signMessage(new TextEncoder().encode(text));
  if (signature.length !== 64) throw new Error(`the signer returned ${signature.length} bytes, not a 64-byte Ed25519 signature`);
  return toBase64(signature);
}

/** A web3.js Keypair's shape (or any holder of a 64-byte Solana secret key: seed then public key). */
export interface KeypairLike {
  publicKey: { toBase58(): string };
  secretKey: Uint8Array;
}

/** PKCS#8 DER prefix of an Ed25519 private key, followed by the 32-byte seed (RFC 8410). */
const PKCS8_ED25519 = [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20];

/**
 * A signer for a keypair held by this process, with WebCrypto's Ed25519 (Node ≥ 20, current
 * browsers): no tweetnacl, no node:crypto, so the same code runs in a browser bundle.
 */
export function keypairSigner(keypair: KeypairLike): MessageSigner {
  if (keypair.secretKey.length !== 64) throw new Error('a Solana secret key is 64 bytes (seed and public key)');
  const address = keypair.publicKey.toBase58();
  if (base58Encode(keypair.secretKey.subarray(32)) !== address) throw new Error('the secret key does not belong to the public key');
  const pkcs8 = Uint8Array.from([...PKCS8_ED25519, ...keypair.secretKey.subarray(0, 32)]);
  let key: ReturnType<typeof crypto.subtle.importKey> | undefined;
  return {
    publicKey: address,
    async signMessage(message) {
      key ??= crypto.subtle.importKey('pkcs8', pkcs8, { name: 'Ed25519' }, false, ['sign']);
      return new Uint8Array(await crypto.subtle.sign('Ed25519', await key, message));
    },
  };
}
