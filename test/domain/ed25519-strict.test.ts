/**
 * The API's signature rule is verify_strict: each published edge-case vector gets its expected
 * strict verdict (written in ed25519-vectors.ts), through the raw verifier and through the
 * signed-message verifier every route uses; plus the two forgeries of issue 25, which node's
 * plain crypto.verify accepts (so the routes accepted them before this rule).
 */
import { createPublicKey, verify } from 'node:crypto';
import { Keypair, PublicKey } from '@solana/web3.js';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { isCanonicalPointEncoding, isCanonicalScalar, isSmallOrderEncoding, isStrictPublicKey, verifyStrict } from '@pmx/programs';
import { encodeOrderMessage, orderSigningText } from '../../src/domain/orderbook/index.js';
import { verifySignedMessage } from '../../src/domain/signed-message.js';
import { SPECCHECK_VECTORS } from '../helpers/ed25519-vectors.js';
import { IDENTITY_PUBKEY, IDENTITY_SIGNATURE, signText, zeroNonceSignature } from '../helpers/sign.js';

const hex = (h: string) => Buffer.from(h, 'hex');
const nodeVerify = (message: Uint8Array, signature: Uint8Array, pubkey: Uint8Array) =>
  verify(
    null,
    message,
    createPublicKey({ key: Buffer.concat([hex('302a300506032b6570032100'), pubkey]), format: 'der', type: 'spki' }),
    signature,
  );

describe('verify_strict against the "Taming the many EdDSAs" vectors', () => {
  for (const c of SPECCHECK_VECTORS) {
    it(`vector ${c.index} (${c.what}): ${c.strict ? 'accepted' : 'refused'}`, () => {
      expect(verifyStrict(hex(c.message), hex(c.signature), hex(c.pubKey))).toBe(c.strict);
      expect(verifySignedMessage(hex(c.message), bs58.encode(hex(c.pubKey)), bs58.encode(hex(c.signature))).ok).toBe(c.strict);
    });
  }
});

describe('the forgeries of issue 25', () => {
  const owner = Keypair.generate();
  const order = orderSigningText(
    encodeOrderMessage({
      market: Keypair.generate().publicKey.toBytes(),
      owner: owner.publicKey.toBytes(),
      side: 'buy',
      outcome: 'yes',
      priceBps: 5000,
      quantity: 10_000_000n,
      nonce: 1n,
      expiry: 2_000_000_000n,
    }),
  );

  it('a real key signing a real order with r = 0 (R = identity): node accepts it, the strict rule does not', () => {
    const sig = zeroNonceSignature(owner, order);
    expect(nodeVerify(Buffer.from(order), sig, owner.publicKey.toBytes())).toBe(true); // what the routes ran before
    expect(verifyStrict(Buffer.from(order), sig, owner.publicKey.toBytes())).toBe(false);
    expect(verifySignedMessage(order, owner.publicKey.toBase58(), bs58.encode(sig))).toMatchObject({ ok: false, reason: 'BAD_SIGNATURE' });
    // The same key's honest signature still verifies.
    expect(verifySignedMessage(order, owner.publicKey.toBase58(), bs58.encode(signText(owner, order)))).toEqual({ ok: true });
  });

  it('the identity key with R = identity, S = 0 signs every message for node, none for the strict rule', () => {
    const identity = new PublicKey(IDENTITY_PUBKEY).toBase58();
    expect(identity).toBe('4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofM');
    for (const text of [order, 'PMX Cancel:anything', 'PMX Cancel All:*:1800000000']) {
      expect(nodeVerify(Buffer.from(text), IDENTITY_SIGNATURE, IDENTITY_PUBKEY)).toBe(true);
      expect(verifySignedMessage(text, identity, bs58.encode(IDENTITY_SIGNATURE))).toMatchObject({ ok: false, reason: 'BAD_SIGNATURE' });
    }
  });
});

describe('the byte checks', () => {
  it('S < L: L − 1 passes, L and above do not', () => {
    const l = 2n ** 252n + 27742317777372353535851937790883648493n;
    const le = (n: bigint) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex').reverse();
    expect(isCanonicalScalar(le(l - 1n))).toBe(true);
    expect(isCanonicalScalar(le(0n))).toBe(true);
    expect(isCanonicalScalar(le(l))).toBe(false);
    expect(isCanonicalScalar(le(2n ** 256n - 1n))).toBe(false);
  });

  it('y < p is canonical (sign bit aside); p … 2^255 − 1 are not', () => {
    const p = 2n ** 255n - 19n;
    const le = (n: bigint) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex').reverse();
    expect(isCanonicalPointEncoding(le(p - 1n))).toBe(true);
    expect(isCanonicalPointEncoding(le((p - 1n) | (1n << 255n)))).toBe(true);
    expect(isCanonicalPointEncoding(le(p))).toBe(false);
    expect(isCanonicalPointEncoding(le(p + 18n))).toBe(false);
    expect(isCanonicalPointEncoding(le((p + 2n) | (1n << 255n)))).toBe(false);
  });

  it('every encoding of the identity is small order; owners may not use one', () => {
    const negativeZero = Buffer.from(IDENTITY_PUBKEY);
    negativeZero[31] = 0x80;
    const nonCanonical = hex('eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f'); // p + 1 ≡ 1
    for (const key of [IDENTITY_PUBKEY, negativeZero, nonCanonical]) {
      expect(isSmallOrderEncoding(key)).toBe(true);
      expect(isStrictPublicKey(key)).toBe(false);
    }
    expect(isStrictPublicKey(Keypair.generate().publicKey.toBytes())).toBe(true);
  });
});
