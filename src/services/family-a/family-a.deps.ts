/** What Family A's services need, built once by the feature (src/features/family-a.feature.ts). */
import type { Keypair } from '@solana/web3.js';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Dialect } from '../../../db/database.js';
import type { Database } from '../../../db/schema.js';
import type { ChainClient } from '../../chain/chain-client.js';
import type { FamilyAKeys } from './family-a.keys.js';

/** How long a quote may be paid: the spec's 120 000 ms (docs/family-a.md, `QUOTE_EXPIRED`). */
export const QUOTE_TTL_MS = 120_000;

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
  /**
   * How long after its quote expired (or its creation window closed) a payment that could still
   * be honoured waits for its step 2 before it is refunded (FAMILY_A_PRESENT_GRACE_SEC).
   */
  presentGraceSec: number;
  x402: StandardX402Settings;
}

/** Standard x402 v2 (docs/x402-standard.md); the documented flavour ignores these. */
export interface StandardX402Settings {
  /** CAIP-2 id the PAYMENT-REQUIRED names (the x402 SVM client knows mainnet, devnet and testnet only). */
  network: string;
  maxComputeUnits: number;
  maxPriceMicroLamports: number;
  /** Raw USDC a buy adds when the buyer has no outcome-token account yet (the platform pays its rent). */
  accountFeeRaw: bigint;
  feePayerMinLamports: bigint;
  payerPerMinute: number;
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
  /**
   * Enqueues the outbound job for an intent recorded in the database (after commit). `attempt`
   * names the job (default `first`): a re-drive passes a new one, or the queue would ignore it.
   */
  dispatchOutbound(outboundId: string, attempt?: string): Promise<void>;
}
