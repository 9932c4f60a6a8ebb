/**
 * Starts the JSON-RPC (HTTP) and PubSub (WebSocket) endpoints of the embedded cluster on
 * consecutive ports, as solana-test-validator does (8899/8900), so a plain `new Connection(url)`
 * finds the WebSocket at port + 1. Port 0 picks a free pair (tests run in parallel).
 */
import type { Logger } from 'pino';
import { JsonRpcServer, type JsonRpcServerOptions } from './json-rpc.server.js';
import type { EmbeddedLedger } from './ledger.js';
import { PubSubServer } from './pubsub.server.js';

export interface ClusterEndpoints {
  rpcUrl: string;
  wsUrl: string;
  rpcPort: number;
  wsPort: number;
  rpc: JsonRpcServer;
  close(): Promise<void>;
}

export async function startClusterEndpoints(
  ledger: EmbeddedLedger,
  port: number,
  logger?: Logger,
  host = '127.0.0.1',
  rpcOptions: JsonRpcServerOptions = {},
): Promise<ClusterEndpoints> {
  const attempts = port === 0 ? 20 : 1;
  let lastError: unknown;
  for (let i = 0; i < attempts; i++) {
    const rpc = new JsonRpcServer(ledger, logger, rpcOptions);
    const rpcPort = await rpc.listen(port, host);
    const pubsub = new PubSubServer(ledger, logger);
    try {
      const wsPort = await pubsub.listen(rpcPort + 1, host);
      return {
        rpcUrl: `http://${host}:${rpcPort}`,
        wsUrl: `ws://${host}:${wsPort}`,
        rpcPort,
        wsPort,
        rpc,
        close: async () => {
          await Promise.all([rpc.close(), pubsub.close()]);
        },
      };
    } catch (e) {
      lastError = e;
      await rpc.close();
    }
  }
  throw lastError;
}
