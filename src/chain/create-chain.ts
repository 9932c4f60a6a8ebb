/**
 * The chain factory for the composition root. `embedded`: opens the in-process ledger, starts its
 * JSON-RPC/PubSub endpoints and returns the in-process adapter. `rpc`: a web3.js Connection to
 * any cluster (devnet, mainnet, a local validator).
 */
import type { Logger } from 'pino';
import { EmbeddedChainClient } from './adapters/embedded.adapter.js';
import { RpcChainClient } from './adapters/rpc.adapter.js';
import type { ChainClient, Commitment } from './chain-client.js';
import { EmbeddedLedger, type ProgramHandler, startClusterEndpoints } from '@pmx/local-cluster';
import { namePortSetting } from '../infra/port-in-use.js';

export interface ChainConfig {
  chain: 'embedded' | 'rpc';
  /** Embedded ledger state and keys live under it; undefined = memory only (tests). */
  dataDir?: string;
  rpcUrl?: string;
  wsUrl?: string;
  /** Embedded JSON-RPC port (PubSub on port + 1); 0 = any free pair. Default 8899. */
  ledgerRpcPort?: number;
  /** Embedded: where the platform keys live (default dataDir/keys). */
  keysDir?: string;
  /** Embedded: the address the endpoints bind (default 127.0.0.1). */
  ledgerHost?: string;
  /** Embedded: whether JSON-RPC answers requestAirdrop (default true). */
  airdrop?: boolean;
  commitment?: Commitment;
  programs?: ProgramHandler[];
  logger: Logger;
  slotMs?: number;
}

export interface Chain {
  client: ChainClient;
  ledger?: EmbeddedLedger;
  rpcUrl: string;
  wsUrl: string;
  close(): Promise<void>;
}

export async function createChain(cfg: ChainConfig): Promise<Chain> {
  if (cfg.chain === 'rpc') {
    if (!cfg.rpcUrl) throw new Error('createChain: rpcUrl is required when chain = rpc');
    const client = new RpcChainClient({ rpcUrl: cfg.rpcUrl, wsUrl: cfg.wsUrl, commitment: cfg.commitment, logger: cfg.logger });
    return { client, rpcUrl: cfg.rpcUrl, wsUrl: client.wsUrl, close: () => client.close() };
  }
  const ledger = await EmbeddedLedger.open({
    dataDir: cfg.dataDir,
    keysDir: cfg.keysDir,
    programs: cfg.programs,
    logger: cfg.logger,
    slotMs: cfg.slotMs,
  });
  let endpoints;
  const port = cfg.ledgerRpcPort ?? 8899;
  try {
    endpoints = await startClusterEndpoints(ledger, port, cfg.logger, cfg.ledgerHost, { airdrop: cfg.airdrop });
  } catch (e) {
    await ledger.close();
    throw portInUse(e, port);
  }
  cfg.logger.info({ rpcUrl: endpoints.rpcUrl, wsUrl: endpoints.wsUrl }, 'embedded cluster listening');
  const client = new EmbeddedChainClient(ledger);
  return {
    client,
    ledger,
    rpcUrl: endpoints.rpcUrl,
    wsUrl: endpoints.wsUrl,
    close: async () => {
      await endpoints.close();
      await client.close();
      await ledger.close();
    },
  };
}

/** JSON-RPC takes LEDGER_RPC_PORT and PubSub the port after it: say which one is taken. */
function portInUse(error: unknown, port: number): unknown {
  const taken = (error as { port?: number }).port ?? port;
  return namePortSetting(error, 'LEDGER_RPC_PORT', port, taken === port ? '' : `: PubSub needs ${taken}, LEDGER_RPC_PORT + 1`);
}
