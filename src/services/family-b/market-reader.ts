/**
 * Reads Family B markets: live from the chain for transaction building (the freshest state, so
 * a quote and the transaction built from it agree with what the program will see), and from the
 * index for API reads (falling back to the chain, and indexing what it read, when the index has
 * not seen the market yet).
 */
import { PublicKey } from '@solana/web3.js';
import type { Kysely } from 'kysely';
import { findChainMarket, upsertChainMarket } from '../../../db/repositories/chain-markets.repository.js';
import { syncCatalogStatus } from '../../../db/repositories/market-catalog.repository.js';
import type { Database } from '../../../db/schema.js';
import type { AccountSnapshot, ChainClient } from '../../chain/chain-client.js';
import {
  addressOf,
  type ConfigAccount,
  decodeConfigAccount,
  decodeMarketAccount,
  findConfigPda,
  findMarketPda,
  findNoMintPda,
  findYesMintPda,
  type MarketAccount,
} from '@pmx/programs';
import { DomainError } from '../../domain/errors.js';

export interface LoadedMarket {
  address: PublicKey;
  account: MarketAccount;
  yesMint: PublicKey;
  noMint: PublicKey;
  /** The account's bytes as read (what the index stores). */
  data: Buffer;
  slot: number;
}

export interface MarketProgramRef {
  chain: ChainClient;
  programId: PublicKey;
}

/**
 * The outcome mints of a market, derived once per (program, market id): a PDA search costs
 * ~0.4 ms of curve checks per mint, which dominated every API read of a market.
 */
const mintCache = new WeakMap<PublicKey, Map<bigint, { yesMint: PublicKey; noMint: PublicKey }>>();
const MINT_CACHE_MAX = 50_000;

export function outcomeMints(marketId: bigint, programId: PublicKey): { yesMint: PublicKey; noMint: PublicKey } {
  let byId = mintCache.get(programId);
  if (!byId) mintCache.set(programId, (byId = new Map()));
  let mints = byId.get(marketId);
  if (!mints) {
    if (byId.size >= MINT_CACHE_MAX) byId.clear();
    mints = { yesMint: findYesMintPda(marketId, programId)[0], noMint: findNoMintPda(marketId, programId)[0] };
    byId.set(marketId, mints);
  }
  return mints;
}

/**
 * Decoded market accounts per (program, market id), valid while the bytes are the same: API reads
 * decode what the index hands them and builds what the chain holds, which change only when the
 * market does, and decoding on every read was 6-19 % of a positions read's CPU and 7 % of a
 * buy build's (issue 15). An entry is used only when its bytes
 * equal the row's, so a changed market is decoded afresh. Shared by every reader, so frozen.
 * Bounded: when full, the oldest entry goes.
 */
const decodedCache = new WeakMap<PublicKey, Map<bigint, { data: Buffer; account: MarketAccount; address: PublicKey; key: string }>>();
const DECODED_MAX = 10_000;

function decodedFromIndex(programId: PublicKey, address: string, data: Buffer, key?: PublicKey) {
  let byId = decodedCache.get(programId);
  if (!byId) decodedCache.set(programId, (byId = new Map()));
  const id = data.length >= 16 ? data.readBigUInt64LE(8) : -1n;
  const hit = byId.get(id);
  if (hit && hit.key === address && hit.data.equals(data)) return hit;
  const entry = {
    data: Buffer.from(data),
    account: Object.freeze(decodeMarketAccount(data)),
    address: key ?? new PublicKey(address),
    key: address,
  };
  byId.delete(id);
  if (byId.size >= DECODED_MAX) byId.delete(byId.keys().next().value!);
  byId.set(id, entry);
  return entry;
}

/** The decoded market account of an index row's bytes (cached while they are unchanged). */
export function decodeIndexedMarket(programId: PublicKey, address: string, data: Buffer): MarketAccount {
  return decodedFromIndex(programId, address, data).account;
}

/**
 * A LoadedMarket from account bytes (an index row, or the chain read live for a build), decoding
 * only when the bytes changed. The decoded account is shared and frozen: nothing may modify it.
 */
function loaded(programId: PublicKey, address: string, data: Buffer, slot: number, key?: PublicKey): LoadedMarket {
  const entry = decodedFromIndex(programId, address, data, key);
  return { address: entry.address, account: entry.account, ...outcomeMints(entry.account.marketId, programId), data, slot };
}

export function marketNotFound(marketId: bigint): DomainError {
  return new DomainError('not_found', 'MARKET_NOT_FOUND', `Market not found: ${marketId}`, { marketId: Number(marketId) });
}

/**
 * A market from an account already read (a getProgramAccounts answer), without reading it again:
 * null unless it sits at the market PDA of the id it carries (a copy elsewhere is not a market).
 */
export function marketFromSnapshot(
  ref: Pick<MarketProgramRef, 'programId'>,
  snapshot: AccountSnapshot,
  opts: { cache?: boolean } = {},
): LoadedMarket | null {
  if (snapshot.owner !== addressOf(ref.programId) || snapshot.data.length < 16) return null;
  const [address] = findMarketPda(snapshot.data.readBigUInt64LE(8), ref.programId);
  if (addressOf(address) !== snapshot.address) return null;
  if (opts.cache !== false) return loaded(ref.programId, snapshot.address, snapshot.data, snapshot.slot, address);
  // A full pass reads every market once: decoding it into the shared cache would only churn it.
  const account = decodeMarketAccount(snapshot.data);
  return { address, account, ...outcomeMints(account.marketId, ref.programId), data: snapshot.data, slot: snapshot.slot };
}

/** The market as the chain holds it now, or null when no such account exists. */
export async function readMarketFromChain(ref: MarketProgramRef, marketId: bigint): Promise<LoadedMarket | null> {
  const [address] = findMarketPda(marketId, ref.programId);
  const snapshot = await ref.chain.getAccount(addressOf(address));
  if (!snapshot || snapshot.owner !== addressOf(ref.programId)) return null;
  return loaded(ref.programId, snapshot.address, snapshot.data, snapshot.slot, address);
}

export async function requireMarketFromChain(ref: MarketProgramRef, marketId: bigint): Promise<LoadedMarket> {
  const market = await readMarketFromChain(ref, marketId);
  if (!market) throw marketNotFound(marketId);
  return market;
}

/**
 * The program's decoded config per program, valid while its bytes are the same: GET /v2/config
 * reads it on every request and it changes only when a market is created. Shared, so frozen.
 */
const configCache = new WeakMap<PublicKey, { data: Buffer; config: ConfigAccount }>();

export async function readProgramConfig(ref: MarketProgramRef): Promise<ConfigAccount | null> {
  const snapshot = await ref.chain.getAccount(addressOf(findConfigPda(ref.programId)[0]));
  if (!snapshot) return null;
  const hit = configCache.get(ref.programId);
  if (hit && hit.data.equals(snapshot.data)) return hit.config;
  const config = Object.freeze(decodeConfigAccount(snapshot.data));
  configCache.set(ref.programId, { data: Buffer.from(snapshot.data), config });
  return config;
}

export async function indexLoadedMarket(db: Kysely<Database>, m: LoadedMarket): Promise<void> {
  await upsertChainMarket(db, {
    marketId: m.account.marketId,
    address: m.address.toBase58(),
    creator: m.account.creator.toBase58(),
    status: m.account.status,
    mode: m.account.mode,
    yesMint: m.yesMint.toBase58(),
    noMint: m.noMint.toBase58(),
    data: m.data,
    slot: BigInt(m.slot),
  });
  const a = m.account;
  const resolvedAt = a.resolvedAt > 0n ? new Date(Number(a.resolvedAt) * 1000).toISOString() : null;
  await syncCatalogStatus(db, a.marketId, a.status, a.winningSide, resolvedAt);
}

/**
 * Ids the chain recently said do not exist, per chain client. Without it every request for an
 * unknown id costs an RPC call (a cheap way to exhaust a public RPC's quota). A miss is trusted
 * for MISS_TTL_MS: a market created meanwhile is indexed by the listener (the index is read
 * first), so the cache only delays the chain fallback for a market the index has not seen yet.
 * Bounded: when full, the oldest entries go first (Map iteration is insertion order).
 */
export const MISS_TTL_MS = 2_000;
const MISS_CACHE_MAX = 4_096;
const misses = new WeakMap<ChainClient, Map<string, number>>();

function missKey(ref: MarketProgramRef, marketId: bigint): string {
  return `${ref.programId.toBase58()}:${marketId}`;
}

function recentlyMissed(ref: MarketProgramRef, marketId: bigint, now: number): boolean {
  const byKey = misses.get(ref.chain);
  const until = byKey?.get(missKey(ref, marketId));
  if (until === undefined) return false;
  if (until > now) return true;
  byKey!.delete(missKey(ref, marketId));
  return false;
}

function rememberMiss(ref: MarketProgramRef, marketId: bigint, now: number): void {
  let byKey = misses.get(ref.chain);
  if (!byKey) misses.set(ref.chain, (byKey = new Map()));
  const key = missKey(ref, marketId);
  byKey.delete(key); // re-inserted at the end: the eviction order stays oldest-first
  while (byKey.size >= MISS_CACHE_MAX) byKey.delete(byKey.keys().next().value!);
  byKey.set(key, now + MISS_TTL_MS);
}

/** The market as the index holds it, or undefined when the index lacks it (the chain is not read). */
export async function readIndexedMarket(db: Kysely<Database>, ref: MarketProgramRef, marketId: bigint): Promise<LoadedMarket | undefined> {
  const row = await findChainMarket(db, marketId);
  return row ? loaded(ref.programId, row.address, row.data, Number(row.slot)) : undefined;
}

/**
 * For API reads: the index first, then the chain (indexing the result). An id the chain did not
 * know is answered 404 from the miss cache for MISS_TTL_MS without another chain read.
 */
export async function readMarketForApi(db: Kysely<Database>, ref: MarketProgramRef, marketId: bigint): Promise<LoadedMarket> {
  const indexed = await readIndexedMarket(db, ref, marketId);
  if (indexed) return indexed;
  if (recentlyMissed(ref, marketId, Date.now())) throw marketNotFound(marketId);
  const market = await readMarketFromChain(ref, marketId);
  if (!market) {
    rememberMiss(ref, marketId, Date.now());
    throw marketNotFound(marketId);
  }
  await indexLoadedMarket(db, market);
  return market;
}
