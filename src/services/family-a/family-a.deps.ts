/** What Family A's services need, built once by the feature (src/features/family-a.feature.ts). */
import type { Keypair } from '@solana/web3.js';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Dialect } from '../../../db/database.js';
import type { Database } from '../../../db/schema.js';
import type { ChainClient } from '../../chain/chain-client.js';
import type { FamilyAKeys } from './family-a.keys.js';

export interface FamilyASettings {
  /** x402 network name: solana-localnet (embedded), solana-devnet, solana-mainnet. */
  network: string;
  /** Default raw USDC per whole outcome token (500 = 0.0005 USDC). */
  targetPriceRaw: bigint;
  defaultMarketLimit: bigint;
  creationFeeUsdcRaw: bigint;
  creationFeeLamports: bigint;
  creationWindowSec: number;
  /** How long step 2 waits for the delivery to confirm before answering with its signature. */
  deliveryWaitMs: number;
  quoteTtlMs: number;
}

export interface FamilyADeps {
  db: Kysely<Database>;
  dialect: Dialect;
  chain: ChainClient;
  usdcMint: string;
  /** Fee payer of every platform transaction and mint authority of Family A outcome tokens. */
  treasury: Keypair;
  keys: FamilyAKeys;
  settings: FamilyASettings;
  log: Logger;
  /** Enqueues the outbound job for an intent recorded in the database (after commit). */
  dispatchOutbound(outboundId: string): Promise<void>;
}
