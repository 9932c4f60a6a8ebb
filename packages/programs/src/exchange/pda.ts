/**
 * The exchange program's addresses (docs/programs.md, "Exchange program"). Markets are keyed by
 * the 16 raw bytes of their UUID; smart wallets by the owner's public key.
 */
import type { PublicKey } from '@solana/web3.js';
import { EXCHANGE_PROGRAM_ID } from './program-id.js';
import { bytesOf } from '../solana/legacy-message.js';
import { associatedTokenAddress, findProgramAddressCached } from '../solana/pda-cache.js';

const USER_ESCROW = Buffer.from('user_escrow');
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The UUID as its 16 bytes in RFC 4122 (textual) order; throws RangeError on anything else. */
export function marketUuidSeed(uuid: string): Buffer {
  if (!UUID_RE.test(uuid)) throw new RangeError(`not a UUID: ${uuid}`);
  return Buffer.from(uuid.replaceAll('-', ''), 'hex');
}

/** The inverse of marketUuidSeed (lowercase canonical form). */
export function uuidFromSeed(bytes: Uint8Array): string {
  if (bytes.length !== 16) throw new RangeError('a UUID seed is 16 bytes');
  const h = Buffer.from(bytes).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** ATA(owner, mint) of the classic Token program, derived once per pair (a search costs ~1 ms of curve checks). */
export function findTokenAccountAddress(owner: PublicKey, mint: PublicKey): PublicKey {
  // The same derivation, keyed by the keys' bytes kept per object (toBuffer runs bn.js each time).
  return associatedTokenAddress(mint, owner);
}

export function findExchangeConfigPda(programId: PublicKey = EXCHANGE_PROGRAM_ID): [PublicKey, number] {
  return findProgramAddressCached([Buffer.from('config')], programId);
}

const byUuid = new WeakMap<PublicKey, Map<string, [PublicKey, number]>>();

/**
 * A market's PDA by seed name and UUID text, without parsing the UUID again: every settle batch
 * compiled asks for the same market's accounts several times (issue 31, thirteenth pass).
 */
function marketScopedPda(seed: string, uuid: string, programId: PublicKey): [PublicKey, number] {
  let known = byUuid.get(programId);
  if (!known) byUuid.set(programId, (known = new Map()));
  const key = `${seed}:${uuid}`;
  let found = known.get(key);
  if (!found) {
    found = findProgramAddressCached([Buffer.from(seed), marketUuidSeed(uuid)], programId);
    if (known.size >= 50_000) known.clear();
    known.set(key, found);
  }
  return found;
}

export function findClobMarketPda(uuid: string, programId: PublicKey = EXCHANGE_PROGRAM_ID): [PublicKey, number] {
  return marketScopedPda('market', uuid, programId);
}

export function findClobOutcomeMintPda(
  uuid: string,
  outcome: 'yes' | 'no',
  programId: PublicKey = EXCHANGE_PROGRAM_ID,
): [PublicKey, number] {
  return marketScopedPda(`${outcome}_mint`, uuid, programId);
}

/** The market's USDC vault: ATA(owner = market PDA, mint = USDC). */
export function findClobVaultAddress(uuid: string, usdcMint: PublicKey, programId: PublicKey = EXCHANGE_PROGRAM_ID): PublicKey {
  return findTokenAccountAddress(findClobMarketPda(uuid, programId)[0], usdcMint);
}

/** The smart wallet: PDA ["user_escrow", owner]. */
export function findUserEscrowPda(owner: PublicKey, programId: PublicKey = EXCHANGE_PROGRAM_ID): [PublicKey, number] {
  return findProgramAddressCached([USER_ESCROW, bytesOf(owner)], programId);
}

/** A token account of the smart wallet: ATA(owner = escrow PDA, mint). */
export function findEscrowTokenAddress(owner: PublicKey, mint: PublicKey, programId: PublicKey = EXCHANGE_PROGRAM_ID): PublicKey {
  return findTokenAccountAddress(findUserEscrowPda(owner, programId)[0], mint);
}

const FILL_RECEIPT = Buffer.from('fill_receipt');

/** One receipt per settled fill: ["fill_receipt", fill uuid bytes] (settlement/fill-receipt.ts). */
export function findFillReceiptPda(fillUuid: string, programId: PublicKey = EXCHANGE_PROGRAM_ID): [PublicKey, number] {
  return findProgramAddressCached([FILL_RECEIPT, marketUuidSeed(fillUuid)], programId);
}

/**
 * `findFillReceiptPda` from the fill UUID's 16 bytes, as a settle instruction carries them: the
 * same address and cache entry, without making the text and parsing it back (the embedded
 * program's settle did that for every fill).
 */
export function findFillReceiptPdaOfSeed(seed: Uint8Array, programId: PublicKey = EXCHANGE_PROGRAM_ID): [PublicKey, number] {
  if (seed.length !== 16) throw new RangeError('a UUID seed is 16 bytes');
  return findProgramAddressCached([FILL_RECEIPT, seed], programId);
}
