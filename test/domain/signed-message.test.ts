/**
 * The shared signed-message verifier against signatures made as a wallet makes them: Ed25519 over
 * the UTF-8 bytes of the text, with the secret key of a @solana/web3.js Keypair.
 */
import { createPrivateKey, sign } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { confirmMarketText, isFresh, verifySignedMessage } from '../../src/domain/signed-message.js';
import { signText } from '../helpers/sign.js';

describe('verifySignedMessage', () => {
  const owner = Keypair.generate();
  const pubkey = owner.publicKey.toBase58();
  const text = confirmMarketText(7, 1_800_000_000);
  const sig = signText(owner, text);

  it('accepts the signature in base58 and in base64', () => {
    expect(text).toBe('PMX Confirm:7:1800000000');
    expect(verifySignedMessage(text, pubkey, bs58.encode(sig))).toEqual({ ok: true });
    expect(verifySignedMessage(text, pubkey, Buffer.from(sig).toString('base64'))).toEqual({ ok: true });
  });

  it('refuses another text, another key, and malformed input, each with its reason', () => {
    expect(verifySignedMessage(confirmMarketText(8, 1_800_000_000), pubkey, bs58.encode(sig))).toMatchObject({
      ok: false,
      reason: 'BAD_SIGNATURE',
    });
    expect(verifySignedMessage(text, Keypair.generate().publicKey.toBase58(), bs58.encode(sig))).toMatchObject({
      ok: false,
      reason: 'BAD_SIGNATURE',
    });
    expect(verifySignedMessage(text, 'not-a-key', bs58.encode(sig))).toMatchObject({ ok: false, reason: 'MALFORMED_PUBKEY' });
    expect(verifySignedMessage(text, pubkey, bs58.encode(sig.subarray(0, 63)))).toMatchObject({ ok: false, reason: 'MALFORMED_SIGNATURE' });
    expect(verifySignedMessage(text, pubkey, '')).toMatchObject({ ok: false, reason: 'MALFORMED_SIGNATURE' });
  });

  it('verifies raw bytes as well as text (Family C order messages)', () => {
    const bytes = new Uint8Array(92).fill(3);
    const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(owner.secretKey.subarray(0, 32))]);
    const s = sign(null, bytes, createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }));
    expect(verifySignedMessage(bytes, pubkey, bs58.encode(s))).toEqual({ ok: true });
  });

  it('judges freshness within the window on either side of the clock', () => {
    const now = 1_800_000_000_000;
    expect(isFresh(1_800_000_000 - 60, now, 60)).toBe(true);
    expect(isFresh(1_800_000_000 + 60, now, 60)).toBe(true);
    expect(isFresh(1_800_000_000 - 61, now, 60)).toBe(false);
    expect(isFresh(1.5, now, 60)).toBe(false);
  });
});
