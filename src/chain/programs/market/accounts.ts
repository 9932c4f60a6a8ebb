/**
 * Codecs of the program's two account types (layouts with offsets in docs/programs.md). Every
 * field sits at a fixed offset and every account of a type has the same size, so indexers can
 * filter getProgramAccounts by dataSize + memcmp on the discriminator, the creator or the status.
 */
import type { PublicKey } from '@solana/web3.js';
import type { MarketMode, MarketStatus, Side } from '../../../domain/amm/index.js';
import { BorshReader, BorshWriter } from './codec.js';
import { accountDiscriminator } from './discriminator.js';

export const CONFIG_ACCOUNT_DISCRIMINATOR = accountDiscriminator('Config');
export const MARKET_ACCOUNT_DISCRIMINATOR = accountDiscriminator('Market');

/** UTF-8 capacities: 4 bytes per character of the character limits (80, 120, 10, 10). */
export const TITLE_MAX_CHARS = 80;
export const DESCRIPTION_MAX_CHARS = 120;
export const TICKER_MAX_CHARS = 10;
const TITLE_CAPACITY = TITLE_MAX_CHARS * 4;
const DESCRIPTION_CAPACITY = DESCRIPTION_MAX_CHARS * 4;
const TICKER_CAPACITY = TICKER_MAX_CHARS * 4;

export const CONFIG_ACCOUNT_SIZE = 128;
export const MARKET_ACCOUNT_SIZE = 1096;
/** Byte offsets for memcmp filters. */
export const MARKET_ACCOUNT_OFFSETS = { marketId: 8, creator: 16, vault: 48, mode: 106, status: 107 } as const;

export interface ConfigAccount {
  admin: PublicKey;
  usdcMint: PublicKey;
  protocolFeeWallet: PublicKey;
  /** The newest market id ever created (ids are reserved off chain; the counter is their max). */
  marketCounter: bigint;
  bump: number;
}

export interface MarketAccount {
  marketId: bigint;
  creator: PublicKey;
  vault: PublicKey;
  resolutionTime: bigint;
  createdAt: bigint;
  resolvedAt: bigint;
  tradeFeeBps: number;
  mode: MarketMode;
  status: MarketStatus;
  winningSide: Side | null;
  mintsInitialized: boolean;
  bump: number;
  seedAmount: bigint;
  yesReserve: bigint;
  noReserve: bigint;
  yesSupply: bigint;
  noSupply: bigint;
  collateral: bigint;
  creatorFeesAccrued: bigint;
  creatorFeesClaimed: bigint;
  protocolFeesAccrued: bigint;
  protocolFeesClaimed: bigint;
  totalVolume: bigint;
  title: string;
  description: string;
  yesTicker: string;
  noTicker: string;
}

const MODES: MarketMode[] = ['amm', 'pool'];
const STATUSES: MarketStatus[] = ['active', 'resolved', 'cancelled'];
const WINNING: (Side | null)[] = [null, 'YES', 'NO'];

function code<T>(table: T[], value: T, what: string): number {
  const i = table.indexOf(value);
  if (i < 0) throw new RangeError(`unknown ${what}`);
  return i;
}

function entry<T>(table: T[], i: number, what: string): T {
  if (i >= table.length) throw new RangeError(`bad ${what} byte ${i}`);
  return table[i] as T;
}

function checkDiscriminator(data: Buffer, expected: Buffer, size: number, name: string): void {
  if (data.length !== size || !data.subarray(0, 8).equals(expected)) {
    throw new RangeError(`not a ${name} account`);
  }
}

export function encodeConfigAccount(c: ConfigAccount): Buffer {
  const body = new BorshWriter()
    .bytes(CONFIG_ACCOUNT_DISCRIMINATOR)
    .pubkey(c.admin)
    .pubkey(c.usdcMint)
    .pubkey(c.protocolFeeWallet)
    .u64(c.marketCounter)
    .u8(c.bump)
    .toBuffer();
  return Buffer.concat([body, Buffer.alloc(CONFIG_ACCOUNT_SIZE - body.length)]);
}

export function decodeConfigAccount(data: Buffer): ConfigAccount {
  checkDiscriminator(data, CONFIG_ACCOUNT_DISCRIMINATOR, CONFIG_ACCOUNT_SIZE, 'Config');
  const r = new BorshReader(data, 8);
  return { admin: r.pubkey(), usdcMint: r.pubkey(), protocolFeeWallet: r.pubkey(), marketCounter: r.u64(), bump: r.u8() };
}

export function encodeMarketAccount(m: MarketAccount): Buffer {
  const w = new BorshWriter()
    .bytes(MARKET_ACCOUNT_DISCRIMINATOR)
    .u64(m.marketId)
    .pubkey(m.creator)
    .pubkey(m.vault)
    .i64(m.resolutionTime)
    .i64(m.createdAt)
    .i64(m.resolvedAt)
    .u16(m.tradeFeeBps)
    .u8(code(MODES, m.mode, 'mode'))
    .u8(code(STATUSES, m.status, 'status'))
    .u8(code(WINNING, m.winningSide, 'winning side'))
    .u8(m.mintsInitialized ? 1 : 0)
    .u8(m.bump)
    .u8(0);
  for (const v of [m.seedAmount, m.yesReserve, m.noReserve, m.yesSupply, m.noSupply, m.collateral]) w.u64(v);
  for (const v of [m.creatorFeesAccrued, m.creatorFeesClaimed, m.protocolFeesAccrued, m.protocolFeesClaimed]) w.u64(v);
  w.u64(m.totalVolume)
    .fixedString(m.title, TITLE_CAPACITY)
    .fixedString(m.description, DESCRIPTION_CAPACITY)
    .fixedString(m.yesTicker, TICKER_CAPACITY)
    .fixedString(m.noTicker, TICKER_CAPACITY);
  return w.toBuffer();
}

export function decodeMarketAccount(data: Buffer): MarketAccount {
  checkDiscriminator(data, MARKET_ACCOUNT_DISCRIMINATOR, MARKET_ACCOUNT_SIZE, 'Market');
  const r = new BorshReader(data, 8);
  const head = {
    marketId: r.u64(),
    creator: r.pubkey(),
    vault: r.pubkey(),
    resolutionTime: r.i64(),
    createdAt: r.i64(),
    resolvedAt: r.i64(),
    tradeFeeBps: r.u16(),
    mode: entry(MODES, r.u8(), 'mode'),
    status: entry(STATUSES, r.u8(), 'status'),
    winningSide: entry(WINNING, r.u8(), 'winning side'),
    mintsInitialized: r.u8() === 1,
    bump: r.u8(),
  };
  r.u8(); // padding
  return {
    ...head,
    seedAmount: r.u64(),
    yesReserve: r.u64(),
    noReserve: r.u64(),
    yesSupply: r.u64(),
    noSupply: r.u64(),
    collateral: r.u64(),
    creatorFeesAccrued: r.u64(),
    creatorFeesClaimed: r.u64(),
    protocolFeesAccrued: r.u64(),
    protocolFeesClaimed: r.u64(),
    totalVolume: r.u64(),
    title: r.fixedString(TITLE_CAPACITY),
    description: r.fixedString(DESCRIPTION_CAPACITY),
    yesTicker: r.fixedString(TICKER_CAPACITY),
    noTicker: r.fixedString(TICKER_CAPACITY),
  };
}
