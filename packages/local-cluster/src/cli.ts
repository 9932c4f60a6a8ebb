/**
 * `local-cluster`: runs the cluster on its own, like `solana-test-validator`: JSON-RPC on
 * --rpc-port (default 8899), PubSub on the next port, the reference market and exchange programs
 * at their default ids, a local USDC mint, and `requestAirdrop`. With --ledger DIR the state and
 * keys persist there (a restart resumes); without it everything lives in memory. Ctrl-C stops it.
 */
import { parseArgs } from 'node:util';
import pino from 'pino';
import { startClusterEndpoints } from './cluster-endpoints.js';
import { EmbeddedLedger } from './ledger.js';
import { createExchangeProgramHandler } from './programs/exchange/exchange.handler.js';
import { createMarketProgramHandler } from './programs/market/market.handler.js';

const USAGE = `usage: local-cluster [--rpc-port 8899] [--bind-address 127.0.0.1] [--ledger DIR] [--slot-ms 400] [--quiet]`;

export interface CliOptions {
  rpcPort: number;
  bindAddress: string;
  ledgerDir?: string;
  slotMs: number;
  quiet: boolean;
}

/** Parses argv (without node and the script); throws a message with the usage on bad input. */
export function parseCliOptions(argv: string[]): CliOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      'rpc-port': { type: 'string', default: '8899' },
      'bind-address': { type: 'string', default: '127.0.0.1' },
      ledger: { type: 'string' },
      'slot-ms': { type: 'string', default: '400' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) throw new Error(USAGE);
  const rpcPort = Number(values['rpc-port']);
  const slotMs = Number(values['slot-ms']);
  // The PubSub server takes the next port, so the JSON-RPC port stops one short of 65535.
  if (!Number.isInteger(rpcPort) || rpcPort < 0 || rpcPort > 65_534) throw new Error(`--rpc-port must be 0–65534\n${USAGE}`);
  if (!Number.isInteger(slotMs) || slotMs < 10 || slotMs > 60_000) throw new Error(`--slot-ms must be 10–60000\n${USAGE}`);
  return { rpcPort, bindAddress: values['bind-address'], ledgerDir: values.ledger, slotMs, quiet: values.quiet };
}

export async function runCli(argv: string[]): Promise<void> {
  let options: CliOptions;
  try {
    options = parseCliOptions(argv);
  } catch (e) {
    console.error((e as Error).message);
    process.exitCode = 2;
    return;
  }
  const logger = pino({ level: options.quiet ? 'warn' : 'info', base: { component: 'local-cluster' } });
  const ledger = await EmbeddedLedger.open({
    dataDir: options.ledgerDir,
    slotMs: options.slotMs,
    logger,
    programs: [createMarketProgramHandler(), createExchangeProgramHandler()],
  });
  const endpoints = await startClusterEndpoints(ledger, options.rpcPort, logger, options.bindAddress).catch(async (e: unknown) => {
    await ledger.close();
    throw e;
  });
  const info = ledger.bootstrapInfo;
  logger.info(
    { rpcUrl: endpoints.rpcUrl, wsUrl: endpoints.wsUrl, usdcMint: info.usdcMint, ledger: options.ledgerDir ?? '(memory)' },
    'local cluster ready',
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    await endpoints.close();
    await ledger.close();
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}
