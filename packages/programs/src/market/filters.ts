/**
 * getProgramAccounts filters for the market program's accounts (JSON-RPC shape: dataSize and
 * memcmp with base58 bytes), so indexers list markets without decoding every account. Sizes and
 * offsets come from the layouts (accounts.ts).
 */
import bs58 from 'bs58';
import type { PublicKey } from '@solana/web3.js';
import type { MarketStatus } from '../amm/index.js';
import { CONFIG_LAYOUT, MARKET_ACCOUNT_OFFSETS, MARKET_LAYOUT, MARKET_STATUSES } from './accounts.js';

export interface AccountFilter {
  dataSize?: number;
  memcmp?: { offset: number; bytes: string };
}

/** Every account of one type: its size and its discriminator. */
function accountTypeFilters(layout: { size: number; discriminator: Buffer }): AccountFilter[] {
  return [{ dataSize: layout.size }, { memcmp: { offset: 0, bytes: bs58.encode(layout.discriminator) } }];
}

/** Every Market account, optionally only one creator's and/or one status. */
export function marketAccountFilters(opts: { creator?: PublicKey; status?: MarketStatus } = {}): AccountFilter[] {
  const filters = accountTypeFilters(MARKET_LAYOUT);
  if (opts.creator) filters.push({ memcmp: { offset: MARKET_ACCOUNT_OFFSETS.creator, bytes: opts.creator.toBase58() } });
  if (opts.status) {
    filters.push({ memcmp: { offset: MARKET_ACCOUNT_OFFSETS.status, bytes: bs58.encode([MARKET_STATUSES.indexOf(opts.status)]) } });
  }
  return filters;
}

export function configAccountFilters(): AccountFilter[] {
  return accountTypeFilters(CONFIG_LAYOUT);
}
