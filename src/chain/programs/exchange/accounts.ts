/**
 * Fixed-layout codecs of the exchange program's accounts (offsets in docs/programs.md). Decoders
 * throw RangeError on a wrong size or discriminator, so a foreign account is never misread.
 */
import { PublicKey } from '@solana/web3.js';
import { EXCHANGE_ACCOUNT } from './discriminators.js';

export const EXCHANGE_CONFIG_SIZE = 128;
export const CLOB_MARKET_SIZE = 160;
export const USER_ESCROW_SIZE = 80;

export type ClobMarketStatus = 'active' | 'paused' | 'resolved';
export type ClobOutcome = 'yes' | 'no';
const STATUSES: ClobMarketStatus[] = ['active', 'paused', 'resolved'];

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

function checked(data: Uint8Array, size: number, disc: Buffer, what: string): Buffer {
  const b = Buffer.from(data);
  if (b.length !== size || !b.subarray(0, 8).equals(disc)) throw new RangeError(`not an exchange ${what} account`);
  return b;
}

const key = (b: Buffer, at: number) => new PublicKey(b.subarray(at, at + 32));

export function encodeExchangeConfig(a: ExchangeConfigAccount): Buffer {
  const b = Buffer.alloc(EXCHANGE_CONFIG_SIZE);
  EXCHANGE_ACCOUNT.config.copy(b, 0);
  a.operator.toBuffer().copy(b, 8);
  a.usdcMint.toBuffer().copy(b, 40);
  a.feeWallet.toBuffer().copy(b, 72);
  b.writeUInt16LE(a.takerFeeBps, 104);
  b.writeUInt16LE(a.makerRebateBps, 106);
  b.writeUInt8(a.bump, 108);
  return b;
}

export function decodeExchangeConfig(data: Uint8Array): ExchangeConfigAccount {
  const b = checked(data, EXCHANGE_CONFIG_SIZE, EXCHANGE_ACCOUNT.config, 'config');
  return {
    operator: key(b, 8),
    usdcMint: key(b, 40),
    feeWallet: key(b, 72),
    takerFeeBps: b.readUInt16LE(104),
    makerRebateBps: b.readUInt16LE(106),
    bump: b.readUInt8(108),
  };
}

export function encodeClobMarket(a: ClobMarketAccount): Buffer {
  if (a.marketUuid.length !== 16) throw new RangeError('market uuid is 16 bytes');
  const b = Buffer.alloc(CLOB_MARKET_SIZE);
  EXCHANGE_ACCOUNT.market.copy(b, 0);
  a.marketUuid.copy(b, 8);
  a.yesMint.toBuffer().copy(b, 24);
  a.noMint.toBuffer().copy(b, 56);
  a.vault.toBuffer().copy(b, 88);
  b.writeBigUInt64LE(a.completeSets, 120);
  b.writeBigInt64LE(a.createdAt, 128);
  b.writeBigInt64LE(a.resolvedAt, 136);
  b.writeUInt8(STATUSES.indexOf(a.status), 144);
  b.writeUInt8(a.outcome === null ? 0 : a.outcome === 'yes' ? 1 : 2, 145);
  b.writeUInt8(a.bump, 146);
  return b;
}

export function decodeClobMarket(data: Uint8Array): ClobMarketAccount {
  const b = checked(data, CLOB_MARKET_SIZE, EXCHANGE_ACCOUNT.market, 'market');
  const status = STATUSES[b.readUInt8(144)];
  const outcomeByte = b.readUInt8(145);
  if (!status || outcomeByte > 2) throw new RangeError('corrupt exchange market account');
  return {
    marketUuid: Buffer.from(b.subarray(8, 24)),
    yesMint: key(b, 24),
    noMint: key(b, 56),
    vault: key(b, 88),
    completeSets: b.readBigUInt64LE(120),
    createdAt: b.readBigInt64LE(128),
    resolvedAt: b.readBigInt64LE(136),
    status,
    outcome: outcomeByte === 0 ? null : outcomeByte === 1 ? 'yes' : 'no',
    bump: b.readUInt8(146),
  };
}

export function encodeUserEscrow(a: UserEscrowAccount): Buffer {
  const b = Buffer.alloc(USER_ESCROW_SIZE);
  EXCHANGE_ACCOUNT.escrow.copy(b, 0);
  a.owner.toBuffer().copy(b, 8);
  b.writeBigInt64LE(a.createdAt, 40);
  b.writeUInt8(a.bump, 48);
  return b;
}

export function decodeUserEscrow(data: Uint8Array): UserEscrowAccount {
  const b = checked(data, USER_ESCROW_SIZE, EXCHANGE_ACCOUNT.escrow, 'escrow');
  return { owner: key(b, 8), createdAt: b.readBigInt64LE(40), bump: b.readUInt8(48) };
}
