/** What Family B's services need: the index, the chain, and the program's addresses. */
import { PublicKey } from '@solana/web3.js';
import { BASE58_PUBKEY } from '@pmx/programs';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../../db/schema.js';
import type { ChainClient } from '../../chain/chain-client.js';
import { DomainError } from '../../domain/errors.js';
import type { MarketProgramRef } from './market-reader.js';

export interface FamilyBContext extends MarketProgramRef {
  db: Kysely<Database>;
  chain: ChainClient;
  programId: PublicKey;
  usdcMint: PublicKey;
  log: Logger;
}

/** A wallet parameter as a PublicKey, or a 400 naming the field. */
export function parseWallet(value: unknown, field = 'wallet'): PublicKey {
  if (typeof value === 'string' && BASE58_PUBKEY.test(value)) {
    try {
      return new PublicKey(value);
    } catch {
      // fall through to the error below
    }
  }
  throw new DomainError('invalid', 'INVALID_WALLET', `${field} must be a base58 Solana address`);
}

/** A non-negative integer parameter carried as a string or number, as bigint. */
export function parseAmount(value: unknown, field: string): bigint {
  if ((typeof value === 'string' && /^\d{1,20}$/.test(value)) || (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0)) {
    const amount = BigInt(value);
    if (amount <= 0xffff_ffff_ffff_ffffn) return amount;
  }
  throw new DomainError('invalid', 'INVALID_AMOUNT', `${field} must be a non-negative integer of raw units`);
}

/** Market ids are positive and, like every id the index stores, below 2^53 (JSON-safe, int8-safe). */
export function parseMarketId(value: unknown): bigint {
  const id = parseAmount(value, 'id');
  if (id === 0n || id > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new DomainError('invalid', 'INVALID_MARKET_ID', `market id must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`);
  }
  return id;
}
