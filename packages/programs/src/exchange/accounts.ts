/**
 * The exchange program's accounts, each layout declared once (docs/programs.md lists the same
 * offsets): encoder, decoder, size and field offsets come from the field list. Decoders throw
 * RangeError on a wrong size, discriminator or enum byte, so a foreign account is never misread.
 */
import { getI64Codec, getLiteralUnionCodec, getU16Codec, getU64Codec, getU8Codec } from '@solana/kit';
import type { PublicKey } from '@solana/web3.js';
import { fixedBytesCodec, publicKeyCodec } from '../shared/field-codecs.js';
import { accountLayout } from '../shared/layout.js';
import { readClobMarket, readExchangeConfig, writeClobMarket } from './accounts-direct.js';
import { EXCHANGE_ACCOUNT } from './discriminators.js';

export type ClobMarketStatus = 'active' | 'paused' | 'resolved';
export type ClobOutcome = 'yes' | 'no';

export interface ExchangeConfigAccount {
  operator: PublicKey;
  usdcMint: PublicKey;
  feeWallet: PublicKey;
  takerFeeBps: number;
  makerRebateBps: number;
  bump: number;
}

export interface ClobMarketAccount {
  marketUuid: Buffer;
  yesMint: PublicKey;
  noMint: PublicKey;
  vault: PublicKey;
  completeSets: bigint;
  createdAt: bigint;
  resolvedAt: bigint;
  status: ClobMarketStatus;
  outcome: ClobOutcome | null;
  bump: number;
}

export interface UserEscrowAccount {
  owner: PublicKey;
  createdAt: bigint;
  bump: number;
}

/** The u8 codes of the enums: the index in each list. */
export const CLOB_MARKET_STATUSES = ['active', 'paused', 'resolved'] as const satisfies readonly ClobMarketStatus[];
export const CLOB_OUTCOMES = [null, 'yes', 'no'] as const satisfies readonly (ClobOutcome | null)[];

export const EXCHANGE_CONFIG_LAYOUT = accountLayout(
  'ExchangeConfig',
  EXCHANGE_ACCOUNT.config,
  [
    ['operator', publicKeyCodec],
    ['usdcMint', publicKeyCodec],
    ['feeWallet', publicKeyCodec],
    ['takerFeeBps', getU16Codec()],
    ['makerRebateBps', getU16Codec()],
    ['bump', getU8Codec()],
  ],
  19,
);

export const CLOB_MARKET_LAYOUT = accountLayout(
  'OrderbookMarket',
  EXCHANGE_ACCOUNT.market,
  [
    ['marketUuid', fixedBytesCodec(16)],
    ['yesMint', publicKeyCodec],
    ['noMint', publicKeyCodec],
    ['vault', publicKeyCodec],
    ['completeSets', getU64Codec()],
    ['createdAt', getI64Codec()],
    ['resolvedAt', getI64Codec()],
    ['status', getLiteralUnionCodec(CLOB_MARKET_STATUSES)],
    ['outcome', getLiteralUnionCodec(CLOB_OUTCOMES)],
    ['bump', getU8Codec()],
  ],
  13,
);

/** The smart wallet; its 31 reserved bytes are kept for settlement nonces. */
export const USER_ESCROW_LAYOUT = accountLayout(
  'UserEscrow',
  EXCHANGE_ACCOUNT.escrow,
  [
    ['owner', publicKeyCodec],
    ['createdAt', getI64Codec()],
    ['bump', getU8Codec()],
  ],
  31,
);

export const EXCHANGE_CONFIG_SIZE = EXCHANGE_CONFIG_LAYOUT.size;
export const CLOB_MARKET_SIZE = CLOB_MARKET_LAYOUT.size;
export const USER_ESCROW_SIZE = USER_ESCROW_LAYOUT.size;

export function encodeExchangeConfig(a: ExchangeConfigAccount): Buffer {
  return EXCHANGE_CONFIG_LAYOUT.encode(a);
}

// A settle reads the config and the market and writes the market in every transaction: at their
// offsets when well-formed (accounts-direct.ts), else through the layout with its exact errors.
export function decodeExchangeConfig(data: Uint8Array): ExchangeConfigAccount {
  return readExchangeConfig(data, EXCHANGE_CONFIG_LAYOUT) ?? EXCHANGE_CONFIG_LAYOUT.decode(data);
}

export function encodeClobMarket(a: ClobMarketAccount): Buffer {
  return writeClobMarket(a, CLOB_MARKET_LAYOUT) ?? CLOB_MARKET_LAYOUT.encode(a);
}

export function decodeClobMarket(data: Uint8Array): ClobMarketAccount {
  return readClobMarket(data, CLOB_MARKET_LAYOUT) ?? CLOB_MARKET_LAYOUT.decode(data);
}

export function encodeUserEscrow(a: UserEscrowAccount): Buffer {
  return USER_ESCROW_LAYOUT.encode(a);
}

export function decodeUserEscrow(data: Uint8Array): UserEscrowAccount {
  return USER_ESCROW_LAYOUT.decode(data);
}
