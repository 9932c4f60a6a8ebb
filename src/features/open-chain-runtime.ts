/**
 * Opens the chain this daemon talks to and gathers what features need from it: the client, the
 * USDC mint, the platform wallets and the program ids.
 * - CHAIN=embedded with the `ledger` role: the in-process ledger (with the reference
 *   implementations of the market and exchange programs) and its JSON-RPC endpoints.
 * - CHAIN=embedded without the `ledger` role: another process on this machine runs the ledger;
 *   reach it over JSON-RPC at 127.0.0.1:LEDGER_RPC_PORT, with the keys it wrote to DATA_DIR/keys.
 * - CHAIN=rpc: a real cluster, with the platform keypairs read from DATA_DIR/keys (mode 0600).
 */
import { existsSync } from 'node:fs';
import { PublicKey } from '@solana/web3.js';
import type { Logger } from 'pino';
import { hasRole, type Config } from '../../config/config.js';
import { createChain, type ChainConfig } from '../chain/create-chain.js';
import { embeddedDevFaucet } from '../chain/dev-faucet.js';
import { createExchangeProgramHandler, createMarketProgramHandler } from '@pmx/local-cluster';
import { EXCHANGE_PROGRAM_ID, MARKET_PROGRAM_ID, platformKeyPath, readKeypair } from '@pmx/programs';
import { publicUrl } from '../chain/public-url.js';
import type { ChainRuntime } from '../chain/chain-runtime.js';

interface ProgramIds {
  market: PublicKey;
  exchange: PublicKey;
}

function chainConfig(config: Config, programs: ProgramIds, log: Logger): ChainConfig {
  const common = { dataDir: config.dataDir, commitment: config.chain.commitment, logger: log.child({ component: 'chain' }) };
  if (config.chain.kind === 'rpc') return { ...common, chain: 'rpc', rpcUrl: config.chain.rpcUrl, wsUrl: config.chain.wsUrl };
  if (!hasRole(config, 'ledger')) {
    const port = config.chain.ledgerRpcPort;
    return { ...common, chain: 'rpc', rpcUrl: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port + 1}` };
  }
  return {
    ...common,
    chain: 'embedded',
    ledgerRpcPort: config.chain.ledgerRpcPort,
    programs: [createMarketProgramHandler({ programId: programs.market }), createExchangeProgramHandler({ programId: programs.exchange })],
  };
}

function usdcMintOf(config: Config): PublicKey {
  if (config.chain.kind === 'rpc') return new PublicKey(config.chain.usdcMint!);
  return readKeypair(platformKeyPath(config.dataDir, 'usdcMint')).publicKey; // written by the ledger process
}

/** Without the ledger role, the ledger process must have started first: it writes the keys. */
function assertLedgerKeysExist(config: Config): void {
  if (config.chain.kind !== 'embedded' || hasRole(config, 'ledger')) return;
  if (!existsSync(platformKeyPath(config.dataDir, 'usdcMint'))) {
    throw new Error(
      `CHAIN=embedded without the ledger role: no embedded cluster keys in ${config.dataDir}/keys. ` +
        'Start the process with ROLES including "ledger" first, on this DATA_DIR, or set CHAIN=rpc.',
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
          treasury: readKeypair(platformKeyPath(config.dataDir, 'treasury')),
          exchangeOperator: readKeypair(platformKeyPath(config.dataDir, 'exchangeOperator')),
          protocolFee: readKeypair(platformKeyPath(config.dataDir, 'protocolFee')),
        };
    const usdcMint = chain.ledger ? new PublicKey(chain.ledger.bootstrapInfo.usdcMint) : usdcMintOf(config);
    const runtime: ChainRuntime = {
      client: chain.client,
      cluster: config.chain.kind === 'embedded' ? 'embedded' : chain.client.cluster,
      rpcUrl: publicUrl(chain.rpcUrl), // what clients are told: no API key of the operator's provider
      usdcMint,
      wallets: { treasury: keys.treasury, exchangeOperator: keys.exchangeOperator, protocolFee: keys.protocolFee },
      programs: { market: marketProgram, exchange: exchangeProgram },
      ...(chain.ledger ? { ledger: chain.ledger, devFaucet: embeddedDevFaucet(chain.ledger) } : {}),
    };
    return { runtime, close: () => chain.close() };
  } catch (error) {
    await chain.close();
    throw error;
  }
}
