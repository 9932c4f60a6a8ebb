/**
 * Opens the chain this daemon talks to and gathers what features need from it: the client, the
 * USDC mint, the platform wallets and the program ids.
 * - CHAIN=embedded with the `ledger` role: the in-process ledger (with the reference
 *   implementations of the market and exchange programs) and its JSON-RPC endpoints.
 * - CHAIN=embedded without the `ledger` role: another process runs the ledger; reach it at RPC_URL
 *   (PubSub at WS_URL, default the next port), with the keys it wrote, copied to KEYS_DIR. The
 *   ledger must hold the USDC mint of those keys: a process pointed at some other ledger refuses
 *   to start instead of writing another cluster's state into the shared database.
 * - CHAIN=rpc: a real cluster, with the platform keypairs read from KEYS_DIR (mode 0600).
 */
import { existsSync } from 'node:fs';
import { PublicKey } from '@solana/web3.js';
import type { Logger } from 'pino';
import { hasRole, type Config } from '../../config/config.js';
import { createChain, type ChainConfig } from '../chain/create-chain.js';
import { embeddedDevFaucet } from '../chain/dev-faucet.js';
import { createExchangeProgramHandler, createMarketProgramHandler } from '@pmx/local-cluster';
import { EXCHANGE_PROGRAM_ID, MARKET_PROGRAM_ID, platformKeyFile, readKeypair } from '@pmx/programs';
import { publicUrl } from '../chain/public-url.js';
import type { ChainRuntime } from '../chain/chain-runtime.js';
import type { ChainClient } from '../chain/chain-client.js';

interface ProgramIds {
  market: PublicKey;
  exchange: PublicKey;
}

function chainConfig(config: Config, programs: ProgramIds, log: Logger): ChainConfig {
  const common = { dataDir: config.dataDir, commitment: config.chain.commitment, logger: log.child({ component: 'chain' }) };
  if (config.chain.kind === 'rpc') return { ...common, chain: 'rpc', rpcUrl: config.chain.rpcUrl, wsUrl: config.chain.wsUrl };
  if (!hasRole(config, 'ledger')) return { ...common, chain: 'rpc', rpcUrl: config.chain.rpcUrl, wsUrl: config.chain.wsUrl };
  return {
    ...common,
    chain: 'embedded',
    ledgerRpcPort: config.chain.ledgerRpcPort,
    ledgerHost: config.chain.ledgerHost,
    keysDir: config.keysDir,
    airdrop: config.chain.ledgerFaucet,
    programs: [createMarketProgramHandler({ programId: programs.market }), createExchangeProgramHandler({ programId: programs.exchange })],
  };
}

function usdcMintOf(config: Config): PublicKey {
  if (config.chain.kind === 'rpc') return new PublicKey(config.chain.usdcMint!);
  return readKeypair(platformKeyFile(config.keysDir, 'usdcMint')).publicKey; // written by the ledger process
}

/** The ledger at RPC_URL must be the one whose keys this process holds (its USDC mint exists there). */
async function assertSameLedger(config: Config, client: ChainClient, usdcMint: PublicKey): Promise<void> {
  if (config.chain.kind !== 'embedded' || hasRole(config, 'ledger')) return;
  const mint = await client.getAccount(usdcMint.toBase58()).catch((error: Error) => {
    throw new Error(`RPC_URL=${publicUrl(config.chain.rpcUrl!)} does not answer (${error.message}): start the ledger process first`);
  });
  if (mint === null) {
    throw new Error(
      `RPC_URL=${publicUrl(config.chain.rpcUrl!)} is not the ledger whose keys are in ${config.keysDir}: ` +
        `its USDC mint ${usdcMint.toBase58()} does not exist there. Point RPC_URL at that ledger, or KEYS_DIR at its keys.`,
    );
  }
}

/** Without the ledger role, the ledger process must have started first: it writes the keys. */
function assertLedgerKeysExist(config: Config): void {
  if (config.chain.kind !== 'embedded' || hasRole(config, 'ledger')) return;
  if (!existsSync(platformKeyFile(config.keysDir, 'usdcMint'))) {
    throw new Error(
      `CHAIN=embedded without the ledger role: no embedded cluster keys in ${config.keysDir}. ` +
        'Start the process with ROLES including "ledger" first and copy its keys here (or set KEYS_DIR to them), or set CHAIN=rpc.',
    );
  }
}

export async function openChainRuntime(config: Config, log: Logger): Promise<{ runtime: ChainRuntime; close(): Promise<void> }> {
  assertLedgerKeysExist(config);
  const marketProgram = config.chain.marketProgramId ? new PublicKey(config.chain.marketProgramId) : MARKET_PROGRAM_ID;
  const exchangeProgram = config.chain.exchangeProgramId ? new PublicKey(config.chain.exchangeProgramId) : EXCHANGE_PROGRAM_ID;
  const chain = await createChain(chainConfig(config, { market: marketProgram, exchange: exchangeProgram }, log));
  try {
    const keys = chain.ledger
      ? chain.ledger.platformKeypairs()
      : {
          treasury: readKeypair(platformKeyFile(config.keysDir, 'treasury')),
          exchangeOperator: readKeypair(platformKeyFile(config.keysDir, 'exchangeOperator')),
          protocolFee: readKeypair(platformKeyFile(config.keysDir, 'protocolFee')),
        };
    const usdcMint = chain.ledger ? new PublicKey(chain.ledger.bootstrapInfo.usdcMint) : usdcMintOf(config);
    await assertSameLedger(config, chain.client, usdcMint);
    const runtime: ChainRuntime = {
      client: chain.client,
      cluster: config.chain.kind === 'embedded' ? 'embedded' : chain.client.cluster,
      // What clients are told (no API key of the operator's provider). The ledger process says
      // RPC_URL when set: bound to 0.0.0.0, its own address would mean nothing to another machine.
      rpcUrl: publicUrl(chain.ledger && config.chain.rpcUrl ? config.chain.rpcUrl : chain.rpcUrl),
      usdcMint,
      wallets: { treasury: keys.treasury, exchangeOperator: keys.exchangeOperator, protocolFee: keys.protocolFee },
      programs: { market: marketProgram, exchange: exchangeProgram },
      ...(chain.ledger ? { ledger: chain.ledger } : {}),
      // LEDGER_FAUCET: off by default when the ledger binds a non-loopback address.
      ...(chain.ledger && config.chain.ledgerFaucet ? { devFaucet: embeddedDevFaucet(chain.ledger) } : {}),
    };
    return { runtime, close: () => chain.close() };
  } catch (error) {
    await chain.close();
    throw error;
  }
}
