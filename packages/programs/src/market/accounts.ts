/**
 * The program's two account types, each layout declared once (docs/programs.md lists the same
 * offsets): encoder, decoder, size and field offsets all come from the field list. Every field
 * sits at a fixed offset and every account of a type has the same size, so indexers can filter
 * getProgramAccounts by dataSize + memcmp on the discriminator, the creator or the status.
 */
import { getBooleanCodec, getI64Codec, getLiteralUnionCodec, getU16Codec, getU64Codec, getU8Codec } from '@solana/kit';
import type { PublicKey } from '@solana/web3.js';
import type { MarketMode, MarketStatus, OutcomeSide } from '../amm/index.js';
import { accountDiscriminator } from '../shared/discriminator.js';
import { publicKeyCodec, stringSlotCodec } from '../shared/field-codecs.js';
import { accountLayout, thenReserved } from '../shared/layout.js';

export const CONFIG_ACCOUNT_DISCRIMINATOR = accountDiscriminator('Config');
export const MARKET_ACCOUNT_DISCRIMINATOR = accountDiscriminator('Market');

/** UTF-8 capacities: 4 bytes per character of the character limits (80, 120, 10, 10). */
export const TITLE_MAX_CHARS = 80;
export const DESCRIPTION_MAX_CHARS = 120;
export const TICKER_MAX_CHARS = 10;

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
  winningSide: OutcomeSide | null;
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

/** The u8 codes of the enums: the index in each list. */
export const MARKET_MODES = ['amm', 'pool'] as const satisfies readonly MarketMode[];
export const MARKET_STATUSES = ['active', 'resolved', 'cancelled'] as const satisfies readonly MarketStatus[];
export const WINNING_SIDES = [null, 'YES', 'NO'] as const satisfies readonly (OutcomeSide | null)[];

const u64 = getU64Codec();
const i64 = getI64Codec();

export const CONFIG_LAYOUT = accountLayout(
  'Config',
  CONFIG_ACCOUNT_DISCRIMINATOR,
  [
    ['admin', publicKeyCodec],
    ['usdcMint', publicKeyCodec],
    ['protocolFeeWallet', publicKeyCodec],
    ['marketCounter', u64],
    ['bump', getU8Codec()],
  ],
  15,
);

export const MARKET_LAYOUT = accountLayout('Market', MARKET_ACCOUNT_DISCRIMINATOR, [
  ['marketId', u64],
  ['creator', publicKeyCodec],
  ['vault', publicKeyCodec],
  ['resolutionTime', i64],
  ['createdAt', i64],
  ['resolvedAt', i64],
  ['tradeFeeBps', getU16Codec()],
  ['mode', getLiteralUnionCodec(MARKET_MODES)],
  ['status', getLiteralUnionCodec(MARKET_STATUSES)],
  ['winningSide', getLiteralUnionCodec(WINNING_SIDES)],
  ['mintsInitialized', getBooleanCodec()],
  // One padding byte aligns the u64 amounts that follow to offset 112.
  ['bump', thenReserved(getU8Codec(), 1)],
  ['seedAmount', u64],
  ['yesReserve', u64],
  ['noReserve', u64],
  ['yesSupply', u64],
  ['noSupply', u64],
  ['collateral', u64],
  ['creatorFeesAccrued', u64],
  ['creatorFeesClaimed', u64],
  ['protocolFeesAccrued', u64],
  ['protocolFeesClaimed', u64],
  ['totalVolume', u64],
  ['title', stringSlotCodec(TITLE_MAX_CHARS * 4)],
  ['description', stringSlotCodec(DESCRIPTION_MAX_CHARS * 4)],
  ['yesTicker', stringSlotCodec(TICKER_MAX_CHARS * 4)],
  ['noTicker', stringSlotCodec(TICKER_MAX_CHARS * 4)],
]);

export const CONFIG_ACCOUNT_SIZE = CONFIG_LAYOUT.size;
export const MARKET_ACCOUNT_SIZE = MARKET_LAYOUT.size;
/** Byte offsets of every Market field, for memcmp filters (discriminator 0, marketId 8, creator 16, …). */
export const MARKET_ACCOUNT_OFFSETS = MARKET_LAYOUT.offsets;

export function encodeConfigAccount(c: ConfigAccount): Buffer {
  return CONFIG_LAYOUT.encode(c);
}

export function decodeConfigAccount(data: Uint8Array): ConfigAccount {
  return CONFIG_LAYOUT.decode(data);
}

export function encodeMarketAccount(m: MarketAccount): Buffer {
  return MARKET_LAYOUT.encode(m);
}

export function decodeMarketAccount(data: Uint8Array): MarketAccount {
  return MARKET_LAYOUT.decode(data);
}
