/**
 * Opens the chain this daemon talks to and gathers what features need from it: the client, the
 * USDC mint, the platform wallets and the program ids. Embedded: the in-process ledger (with the
 * reference implementation of the market program) and its JSON-RPC endpoints. rpc: a real
 * cluster, with the platform keypairs read from DATA_DIR/keys (mode 0600).
 */
import { PublicKey } from '@solana/web3.js';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import { createChain } from '../chain/create-chain.js';
import { platformKeyPath, readKeypair } from '../chain/keys.js';
import { createMarketProgramHandler, MARKET_PROGRAM_ID } from '../chain/programs/market/index.js';
import type { ChainRuntime } from '../features/feature.js';

export async function openChainRuntime(config: Config, log: Logger): Promise<{ runtime: ChainRuntime; close(): Promise<void> }> {
  const marketProgram = config.chain.marketProgramId ? new PublicKey(config.chain.marketProgramId) : MARKET_PROGRAM_ID;
  const chain = await createChain({
    chain: config.chain.kind,
    dataDir: config.dataDir,
    rpcUrl: config.chain.rpcUrl,
    wsUrl: config.chain.wsUrl,
    ledgerRpcPort: config.chain.ledgerRpcPort,
    commitment: config.chain.commitment,
    programs: [createMarketProgramHandler({ programId: marketProgram })],
    logger: log.child({ component: 'chain' }),
  });
  try {
    const keys = chain.ledger
      ? chain.ledger.platformKeypairs()
      : {
          treasury: readKeypair(platformKeyPath(config.dataDir, 'treasury')),
          exchangeOperator: readKeypair(platformKeyPath(config.dataDir, 'exchangeOperator')),
          protocolFee: readKeypair(platformKeyPath(config.dataDir, 'protocolFee')),
        };
    const usdcMint = new PublicKey(chain.ledger ? chain.ledger.bootstrapInfo.usdcMint : config.chain.usdcMint!);
    const runtime: ChainRuntime = {
      client: chain.client,
      cluster: chain.client.cluster,
      rpcUrl: chain.rpcUrl,
      usdcMint,
      wallets: { treasury: keys.treasury, exchangeOperator: keys.exchangeOperator, protocolFee: keys.protocolFee },
      programs: { market: marketProgram },
      ...(chain.ledger ? { ledger: chain.ledger } : {}),
    };
    return { runtime, close: () => chain.close() };
  } catch (error) {
    await chain.close();
    throw error;
  }
}
