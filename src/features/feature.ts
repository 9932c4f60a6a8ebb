/**
 * A feature is one capability of the daemon (a family of the API, the chain's dev endpoints…):
 * the processors of its jobs, its transaction builders, its routes and its schedules. The
 * composition root (src/daemon.ts) builds every feature from one shared context and wires the
 * parts into the roles this process runs.
 */
import type { Keypair, PublicKey } from '@solana/web3.js';
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { TxBuilder } from '../../jobs/processors/tx-build.processor.js';
import type { ProcessorMap } from '../../jobs/processor.js';
import type { JobQueues } from '../../jobs/queues.js';
import type { TxBuildClient } from '../../jobs/tx-build.client.js';
import type { ChainClient } from '../chain/chain-client.js';
import type { OutboundBuilders } from '../services/outbound/outbound.types.js';
import type { EmbeddedLedger } from '../chain/embedded/ledger.js';

/** The platform's own wallets (keypairs from 0600 files under DATA_DIR/keys). */
export interface PlatformWallets {
  treasury: Keypair;
  exchangeOperator: Keypair;
  protocolFee: Keypair;
}

export interface ChainRuntime {
  client: ChainClient;
  /** "embedded" or the RPC URL. */
  cluster: string;
  /** The JSON-RPC URL clients should use (the embedded cluster's own endpoint when embedded). */
  rpcUrl: string;
  usdcMint: PublicKey;
  wallets: PlatformWallets;
  /** `exchange` is the Family C program (optional only so older test harnesses need not name it). */
  programs: { market: PublicKey; exchange?: PublicKey };
  /** Present only on the embedded cluster (dev faucet, fault injection). */
  ledger?: EmbeddedLedger;
}

export interface FeatureContext {
  config: Config;
  log: Logger;
  db: Kysely<Database>;
  dialect: Dialect;
  queues: JobQueues;
  chain: ChainRuntime;
  /** Present in processes with the api role. */
  txBuild?: TxBuildClient;
  adminToken: string;
}

export interface Feature {
  name: string;
  processors?: ProcessorMap;
  txBuilders?: Record<string, TxBuilder>;
  /** Builders of persisted platform transactions, by purpose (see src/features/outbound.feature.ts). */
  outboundBuilders?: OutboundBuilders;
  routes?: FastifyPluginAsync[];
  /** Declares repeatable jobs (idempotent); runs in processes with the worker role. */
  schedules?(): Promise<void>;
  /** Starts long-lived listeners (e.g. chain notifications); runs in the indexer role. */
  start?(): Promise<void>;
  stop?(): Promise<void>;
}

export type FeatureFactory = (ctx: FeatureContext) => Feature | Promise<Feature>;
