/**
 * The one Ed25519 verification rule of the service, for the API (signed orders, cancels,
 * confirms) and for the embedded cluster (transaction signatures, the Ed25519 precompile):
 * ed25519-dalek's `verify_strict`, which Solana's Ed25519 program and transaction verification
 * apply. A signature (R, S) of message M by public key A is accepted exactly when
 *   - S < L (canonical scalar),
 *   - R is a canonical encoding (y < p) and neither R nor A is a point of small order, whatever
 *     its encoding (non-canonical y and the "negative zero" sign bit included),
 *   - A decodes to a curve point, and S·B = R + H(R‖A‖M)·A (cofactorless).
 * The point arithmetic is node's built-in Ed25519 (OpenSSL: cofactorless, compares the encoding
 * of the recomputed R with R's bytes); the bound and small-order checks above are made here, on
 * the bytes, so the rule does not depend on what the linked OpenSSL version checks.
 * Computation only (no I/O): it belongs to the domain.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';

/** DER prefix of an Ed25519 SubjectPublicKeyInfo; the 32 key bytes follow. */
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** L = 2^252 + 27742317777372353535851937790883648493, little-endian. */
const L = Buffer.from('edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010', 'hex');

/**
 * Every encoding of a point of order 1, 2, 4 or 8, with the sign bit masked (libsodium's
 * blocklist): y = 0, 1, the two order-8 y values, p − 1, and the non-canonical p and p + 1
 * (the only non-canonical y, p … 2^255 − 1, that reduce to a small-order point's y).
 */
const SMALL_ORDER = [
  '0000000000000000000000000000000000000000000000000000000000000000',
  '0100000000000000000000000000000000000000000000000000000000000000',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
].map((h) => Buffer.from(h, 'hex'));

/** True when the 32-byte encoding is a point of small order (whatever its sign bit). */
export function isSmallOrderEncoding(point: Uint8Array): boolean {
  if (point.length !== 32) return false;
  return SMALL_ORDER.some((s) => {
    for (let i = 0; i < 31; i++) if (s[i] !== point[i]) return false;
    return s[31] === (point[31]! & 0x7f);
  });
}

/** y (the low 255 bits) < p = 2^255 − 19: every byte 0xff above the first, top byte 0x7f, first ≥ 0xed is not. */
export function isCanonicalPointEncoding(point: Uint8Array): boolean {
  if ((point[31]! & 0x7f) !== 0x7f) return true;
  for (let i = 30; i > 0; i--) if (point[i] !== 0xff) return true;
  return point[0]! < 0xed;
}

/** S < L, S read little-endian from the signature's last 32 bytes. */
export function isCanonicalScalar(s: Uint8Array): boolean {
  for (let i = 31; i >= 0; i--) {
    if (s[i]! !== L[i]!) return s[i]! < L[i]!;
  }
  return false;
}

/**
 * Parsed keys by their bytes (base64), bounded: a trader's every order and cancel, a fee payer's
 * every transaction, is checked with the same key, and parsing it is a third of a verify's cost.
 */
const KEYS = new Map<string, KeyObject | null>();
const KEYS_MAX = 10_000;
/** By array too: the API's verifier passes the same decoded bytes for a key each time (no base64 to compute). */
const BY_ARRAY = new WeakMap<Uint8Array, KeyObject | null>();

function keyObject(pubkey: Uint8Array): KeyObject | null {
  const known = BY_ARRAY.get(pubkey);
  if (known !== undefined) return known;
  const key = parsedKey(pubkey);
  BY_ARRAY.set(pubkey, key);
  return key;
}

function parsedKey(pubkey: Uint8Array): KeyObject | null {
  const id = Buffer.from(pubkey.buffer, pubkey.byteOffset, 32).toString('base64');
  let key = KEYS.get(id);
  if (key === undefined) {
    try {
      key = createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, pubkey]), format: 'der', type: 'spki' });
    } catch {
      key = null;
    }
    if (KEYS.size >= KEYS_MAX) KEYS.delete(KEYS.keys().next().value!);
    KEYS.set(id, key);
  }
  return key;
}

/**
 * A public key a signer may own under the strict rule: 32 bytes, not of small order in any
 * encoding (such a key "signs" every message: R = A = identity, S = 0), canonically encoded.
 * Whether the bytes are a curve point at all is the caller's check (PublicKey.isOnCurve).
 */
export function isStrictPublicKey(pubkey: Uint8Array): boolean {
  return pubkey.length === 32 && !isSmallOrderEncoding(pubkey) && isCanonicalPointEncoding(pubkey);
}

/** ed25519-dalek's `verify_strict` (see the module comment). */
export function verifyStrict(message: Uint8Array, signature: Uint8Array, pubkey: Uint8Array): boolean {
  if (signature.length !== 64 || pubkey.length !== 32) return false;
  const r = signature.subarray(0, 32);
  if (!isCanonicalScalar(signature.subarray(32)) || !isCanonicalPointEncoding(r)) return false;
  if (isSmallOrderEncoding(pubkey) || isSmallOrderEncoding(r)) return false;
  const key = keyObject(pubkey);
  if (!key) return false;
  try {
    return verify(null, message, key, signature);
  } catch {
    // A point that is not on the curve cannot have signed anything.
    return false;
  }
}
