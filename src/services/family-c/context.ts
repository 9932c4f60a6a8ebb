/** What Family C's services need: the database, the chain, the exchange program and its operator. */
import { PublicKey, type Keypair } from '@solana/web3.js';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../../db/schema.js';
import type { ChainClient } from '../../chain/chain-client.js';
import { BASE58_PUBKEY, isStrictPublicKey, U64_MAX } from '@pmx/programs';
import { DomainError } from '../../domain/errors.js';
import type { ClobMetrics } from '../../infra/clob-metrics.js';

export interface FamilyCContext {
  db: Kysely<Database>;
  chain: ChainClient;
  programId: PublicKey;
  usdcMint: PublicKey;
  /** The platform's settlement authority (config.operator): signs market management and settlement. */
  operator: Keypair;
  /** Owner of the USDC account that receives protocol fees. */
  feeWallet: PublicKey;
  fees: { takerFeeBps: number; makerRebateBps: number };
  log: Logger;
  /** The orderbook's Prometheus metrics (counted where each thing happens). */
  metrics: ClobMetrics;
  /** Enqueues an outbound transaction (a lost enqueue is picked up by the resume scan). */
  dispatchOutbound(outboundId: string): Promise<void>;
}

/** A `pubkey` parameter as a PublicKey, or 400 INVALID_PUBKEY. */
export function parsePubkey(value: string, field = 'pubkey'): PublicKey {
  if (BASE58_PUBKEY.test(value)) {
    try {
      const key = new PublicKey(value);
      if (key.toBase58() === value) return key;
    } catch {
      // fall through
    }
  }
  throw new DomainError('invalid', 'INVALID_PUBKEY', `${field} must be a base58 Solana public key`);
}

/**
 * A smart wallet's owner, or 400 INVALID_PUBKEY: besides being a public key, it must be one that
 * only its holder can sign for under the chain's rule (isStrictPublicKey). A small-order key such
 * as the identity "signs" every message with R = identity, S = 0 for lax verifiers.
 */
export function parseOwnerPubkey(value: string, field = 'pubkey'): PublicKey {
  const key = parsePubkey(value, field);
  if (!isStrictPublicKey(key.toBytes())) {
    throw new DomainError(
      'invalid',
      'INVALID_PUBKEY',
      `${field} is a small-order (or non-canonical) Ed25519 key: nobody holds it, anyone can "sign" for it, it cannot own a smart wallet`,
    );
  }
  return key;
}

/** A raw amount carried as a decimal string: a positive u64, or 400 INVALID_AMOUNT. */
export function parseRawAmount(value: string, field = 'amount'): bigint {
  if (/^\d{1,20}$/.test(value)) {
    const amount = BigInt(value);
    if (amount > 0n && amount <= U64_MAX) return amount;
  }
  throw new DomainError(
    'invalid',
    'INVALID_AMOUNT',
    `${field} must be a positive integer of raw units (a decimal string, at most 2^64 - 1)`,
  );
}
