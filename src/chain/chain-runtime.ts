/**
 * What features and routes need of the chain this daemon talks to: the client, the USDC mint,
 * the platform wallets and the program ids (opened by src/features/open-chain-runtime.ts).
 */
import type { Keypair, PublicKey } from '@solana/web3.js';
import type { ChainClient } from './chain-client.js';
import type { DevFaucet } from './dev-faucet.js';
import type { EmbeddedLedger } from '@pmx/local-cluster';

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
  /** The embedded cluster's faucet (POST /v2/dev/faucet); absent on a real cluster. */
  devFaucet?: DevFaucet;
}
