// Any signer with a public key and signMessage: a wallet adapter's shape (PublicKey object,
// async), a remote signer's (base58 string, sync), and a web3.js Keypair through keypairSigner.
import { createPrivateKey, sign } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { keypairSigner, signCancel, signerAddress, signText, type MessageSigner } from '../src/index.js';
import { verifies } from './verify.js';

const nodeSign = (keypair: Keypair, bytes: Uint8Array): Uint8Array => {
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(keypair.secretKey.subarray(0, 32))]);
  return new Uint8Array(sign(null, bytes, createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })));
};

describe('signers', () => {
  it("keypairSigner's WebCrypto signatures equal node's crypto.sign (Ed25519 is deterministic)", async () => {
    const keypair = Keypair.generate();
    const signer = keypairSigner(keypair);
    expect(signer.publicKey).toBe(keypair.publicKey.toBase58());
    for (const text of ['', 'PMX Cancel:x', 'é'.repeat(300)]) {
      const bytes = new TextEncoder().encode(text);
      expect([...(await signer.signMessage(bytes))]).toEqual([...nodeSign(keypair, bytes)]);
    }
  });

  it('a wallet adapter (PublicKey object, async signMessage) and a remote signer (base58 string, sync)', async () => {
    const keypair = Keypair.generate();
    const adapter: MessageSigner = { publicKey: keypair.publicKey, signMessage: async (m) => nodeSign(keypair, m) };
    const remote: MessageSigner = { publicKey: keypair.publicKey.toBase58(), signMessage: (m) => nodeSign(keypair, m) };
    for (const signer of [adapter, remote]) {
      expect(signerAddress(signer)).toBe(keypair.publicKey.toBase58());
      const body = await signCancel(signer, 'abc');
      expect(verifies(keypair.publicKey.toBase58(), 'PMX Cancel:abc', body.signature)).toBe(true);
    }
  });

  it('refuses a signer that returns something other than 64 bytes, and a keypair whose halves disagree', async () => {
    const broken: MessageSigner = { publicKey: Keypair.generate().publicKey, signMessage: () => new Uint8Array(63) };
    await expect(signText(broken, 'x')).rejects.toThrow(/63 bytes/);
    const a = Keypair.generate();
    const b = Keypair.generate();
    expect(() => keypairSigner({ publicKey: b.publicKey, secretKey: a.secretKey })).toThrow(/does not belong/);
  });
});
