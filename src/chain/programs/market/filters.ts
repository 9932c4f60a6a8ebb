/**
 * getProgramAccounts filters for the market program's accounts (JSON-RPC shape: dataSize and
 * memcmp with base58 bytes), so indexers list markets without decoding every account.
 */
import bs58 from 'bs58';
import type { PublicKey } from '@solana/web3.js';
import type { MarketStatus } from '../../../domain/amm/index.js';
import {
  CONFIG_ACCOUNT_DISCRIMINATOR,
  CONFIG_ACCOUNT_SIZE,
  MARKET_ACCOUNT_DISCRIMINATOR,
  MARKET_ACCOUNT_OFFSETS,
  MARKET_ACCOUNT_SIZE,
} from './accounts.js';

export interface AccountFilter {
  dataSize?: number;
  memcmp?: { offset: number; bytes: string };
}

const STATUS_BYTE: Record<MarketStatus, number> = { active: 0, resolved: 1, cancelled: 2 };

/** Every Market account, optionally only one creator's and/or one status. */
export function marketAccountFilters(opts: { creator?: PublicKey; status?: MarketStatus } = {}): AccountFilter[] {
  const filters: AccountFilter[] = [
    { dataSize: MARKET_ACCOUNT_SIZE },
    { memcmp: { offset: 0, bytes: bs58.encode(MARKET_ACCOUNT_DISCRIMINATOR) } },
  ];
  if (opts.creator) filters.push({ memcmp: { offset: MARKET_ACCOUNT_OFFSETS.creator, bytes: opts.creator.toBase58() } });
  if (opts.status) {
    filters.push({ memcmp: { offset: MARKET_ACCOUNT_OFFSETS.status, bytes: bs58.encode([STATUS_BYTE[opts.status]]) } });
  }
  return filters;
}

export function configAccountFilters(): AccountFilter[] {
  return [{ dataSize: CONFIG_ACCOUNT_SIZE }, { memcmp: { offset: 0, bytes: bs58.encode(CONFIG_ACCOUNT_DISCRIMINATOR) } }];
}
