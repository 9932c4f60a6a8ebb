/**
 * Program-derived addresses never change for given seeds, but deriving one runs up to 255 SHA-256
 * rounds plus an off-curve check (findProgramAddressSync was 55 % of the buy route's CPU; the
 * uncached associated-token-account derivations were still 18 % after that). Derive once and
 * remember, in bounded maps (oldest entries leave first). Keys avoid base58: the program's entry
 * is found by the PublicKey object (programs are a handful of constants), the seeds by hex.
 */
import { createHash } from 'node:crypto';
import { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';
import { isOnCurve } from './curve.js';

const MAX_ENTRIES = 50_000;
const byProgram = new WeakMap<PublicKey, Map<string, [PublicKey, number]>>();

function remember<V>(map: Map<string, V>, key: string, value: V): V {
  if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value!);
  map.set(key, value);
  return value;
}

/**
 * Curve checks remembered, by the key's 32 bytes (latin1): a check costs ~20 µs (curve.ts), and the same
 * keys come back (traders signing order after order, PDAs signing transfer after transfer).
 * Addresses this process derives go in as off the curve, which they are by construction.
 */
const onCurve = new Map<string, boolean>();

function rememberCurve(key: string, on: boolean): boolean {
  if (onCurve.size >= MAX_ENTRIES) onCurve.clear();
  onCurve.set(key, on);
  return on;
}

export function isOnCurveCached(bytes: Uint8Array): boolean {
  const key = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return onCurve.get(key) ?? rememberCurve(key, isOnCurve(bytes));
}

export function findProgramAddressCached(seeds: Array<Buffer | Uint8Array>, programId: PublicKey): [PublicKey, number] {
  let cache = byProgram.get(programId);
  if (!cache) byProgram.set(programId, (cache = new Map()));
  // Each seed's length, then its bytes as latin1 (half hex's length, a plain copy): unambiguous,
  // since seeds are at most 32 bytes; hex keys were 1–2 % of a settle batch's assembly.
  let key = '';
  for (const s of seeds) key += String.fromCharCode(s.byteLength) + Buffer.from(s.buffer, s.byteOffset, s.byteLength).toString('latin1');
  const known = cache.get(key);
  if (known) return known;
  const found = deriveProgramAddress(seeds, programId);
  rememberCurve(bytesOf(found[0]).toString('latin1'), false);
  return remember(cache, key, found);
}

const PDA_MARKER = Buffer.from('ProgramDerivedAddress');

/**
 * PublicKey.findProgramAddressSync's answer (the first bump from 255 down whose hash is off the
 * curve), with Node's SHA-256 and curve.ts's check in place of their JavaScript versions; a new
 * order's or fill receipt's address is a miss of the cache above. test/curve.test.ts compares the two.
 * Kept because bench/solana-primitives.bench.ts (2026-11-26, 2 cores shared, load ~15, Node 20;
 * median of 3 runs, order-state seeds): this 6,000 ops/s, web3.js findProgramAddressSync 1,040
 * (this 5.8×), kit getProgramDerivedAddress 750 awaited (8×; async, so every sync caller of the
 * find*Pda builders would have to become async too).
 */
export function deriveProgramAddress(seeds: ReadonlyArray<Buffer | Uint8Array>, programId: PublicKey): [PublicKey, number] {
  if (seeds.length > 15 || seeds.some((s) => s.length > 32)) throw new TypeError('Max seed length exceeded');
  const program = bytesOf(programId);
  for (let bump = 255; bump > 0; bump--) {
    const hash = createHash('sha256');
    for (const s of seeds) hash.update(s);
    const digest = hash.update(Uint8Array.of(bump)).update(program).update(PDA_MARKER).digest();
    if (!isOnCurve(digest)) return [new PublicKey(digest), bump];
  }
  throw new Error('Unable to find a viable program address nonce');
}

const atas = new Map<string, PublicKey>();
const keyBytes = new WeakMap<PublicKey, Buffer>();

/** A PublicKey's 32 bytes, once per object (toBuffer goes through bn.js every time). */
function bytesOf(key: PublicKey): Buffer {
  let b = keyBytes.get(key);
  if (!b) keyBytes.set(key, (b = key.toBuffer()));
  return b;
}

/**
 * The associated token account of `owner` for `mint` (SPL Token), as getAssociatedTokenAddressSync
 * with allowOwnerOffCurve: PDAs (escrows, the market) own token accounts too.
 */
export function associatedTokenAddress(mint: PublicKey, owner: PublicKey): PublicKey {
  const ownerBytes = bytesOf(owner);
  const mintBytes = bytesOf(mint);
  const key = ownerBytes.toString('latin1') + mintBytes.toString('latin1');
  return (
    atas.get(key) ??
    remember(atas, key, deriveProgramAddress([ownerBytes, bytesOf(TOKEN_PROGRAM_ID), mintBytes], ASSOCIATED_TOKEN_PROGRAM_ID)[0])
  );
}

const texts = new WeakMap<PublicKey, string>();
const keysByText = new Map<string, PublicKey>();

/**
 * The PublicKey of a base58 address, one object per address (bounded): the embedded runtime hands
 * handlers the keys of every instruction as PublicKeys and reads them back as text, and both
 * conversions run base58 (2 % of a settlement's time). The object's text is remembered with it.
 */
export function publicKeyOf(text: string): PublicKey {
  let key = keysByText.get(text);
  if (key === undefined) {
    key = remember(keysByText, text, new PublicKey(text));
    texts.set(key, text);
  }
  return key;
}

const keysByBytes = new Map<string, PublicKey>();

/**
 * The PublicKey of 32 bytes, one object per key (bounded): an order's owner comes back in every
 * batch planned from its fills, and one object keeps its bytes and base58 text (addressOf)
 * remembered across them (a new PublicKey per plan re-encoded both: ~5 % of a batch's assembly).
 */
export function publicKeyOfBytes(bytes: Uint8Array): PublicKey {
  const key = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return keysByBytes.get(key) ?? remember(keysByBytes, key, new PublicKey(bytes));
}

/**
 * A key's base58 text, once per PublicKey object: derived and cached addresses are the same
 * objects request after request, and toBase58 re-encodes every time (2.5 % of a buy build).
 */
export function addressOf(key: PublicKey): string {
  let text = texts.get(key);
  if (text === undefined) texts.set(key, (text = key.toBase58()));
  return text;
}
