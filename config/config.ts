/**
 * The daemon's one configuration schema. `loadConfig(env)` validates every key and throws a
 * `ConfigError` listing all the bad ones; `src/main.ts` prints it and exits non-zero.
 * Every key is documented in README.md and .env.example.
 */
import path from 'node:path';
import { address, bool, caip2Solana, int, list, oneOf, str, trustProxy, url, type Parser } from './fields.js';

export const ROLES = ['api', 'worker', 'indexer', 'matcher', 'ledger'] as const;
export type Role = (typeof ROLES)[number];
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  logLevel: LogLevel;
  /** undefined → pretty when stdout is a terminal, JSON otherwise. */
  logPretty: boolean | undefined;
  /** undefined → the daemon starts a private redis-server under DATA_DIR/redis. */
  redisUrl: string | undefined;
  queuePrefix: string;
  /** undefined → SQLite at DATA_DIR/pmx.db; postgres://… → PostgreSQL. */
  databaseUrl: string | undefined;
  /** undefined → generated once into DATA_DIR/admin-token (mode 0600). */
  adminToken: string | undefined;
  /** Platform keypairs and the Family A seed: KEYS_DIR, else DATA_DIR/keys (copy it to every machine). */
  keysDir: string;
  /** undefined → GET /metrics is open; else it needs `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** undefined → /metrics only on the HTTP facade (api role); else also on HOST:METRICS_PORT, in any role. */
  metricsPort: number | undefined;
  roles: Role[];
  rateLimit: { readPerMinute: number; writePerMinute: number };
  http: {
    /** Fastify's trustProxy: false, true, a hop count, or a comma list of proxy addresses/CIDRs. */
    trustProxy: boolean | number | string;
    /** Whole-request deadline (headers and body): a slow client cannot hold a socket forever. */
    requestTimeoutMs: number;
    /** Open TCP connections one peer address may hold (0 = no cap). */
    maxConnectionsPerClient: number;
  };
  txBuildTimeoutMs: number;
  shutdownTimeoutMs: number;
  heartbeatIntervalMs: number;
  indexIntervalMs: number;
  /** How often unfinished platform transactions are re-enqueued. */
  outboundResumeMs: number;
  /** How long the console keeps its per-minute samples (hours). */
  consoleSampleRetentionHours: number;
  /** A console session ends after this long without a request (minutes), and this long after login (hours) whatever. */
  operatorSessionIdleMin: number;
  operatorSessionMaxHours: number;
  /** The Money page flags the treasury (fee payer of platform transactions) below this many SOL. */
  consoleTreasuryMinSol: number;
  /** The Money page flags the exchange operator (pays settlement fees and receipt rent) below this many SOL. */
  consoleOperatorMinSol: number;
  /** How often Family B markets' protocol fees are swept to the protocol fee wallet (0 = never). */
  protocolFeeSweepMs: number;
  chain: {
    kind: 'embedded' | 'rpc';
    rpcUrl: string | undefined;
    wsUrl: string | undefined;
    commitment: 'processed' | 'confirmed' | 'finalized';
    ledgerRpcPort: number;
    /** Address the ledger's JSON-RPC and PubSub bind (LEDGER_HOST); loopback unless told. */
    ledgerHost: string;
    /** requestAirdrop and the dev faucet: on by default only while the ledger binds loopback. */
    ledgerFaucet: boolean;
    usdcMint: string | undefined;
    marketProgramId: string | undefined;
    /** The exchange program (Family C); undefined → the built-in id (packages/programs/docs/programs.md). */
    exchangeProgramId: string | undefined;
  };
  // Family A
  familyA: {
    /** x402 network name; undefined → solana-localnet on the embedded cluster, solana-devnet otherwise. */
    network: string | undefined;
    creationFeeUsdc: number;
    creationFeeSol: number;
    creationWindowSec: number;
    /** USDC per outcome token for new markets. */
    targetPrice: number;
    marketLimit: number;
    deliveryWaitMs: number;
    /** Whether Family A requests need a valid `X-API-Key`. Off by default: the spec says no key is required. */
    requireApiKey: boolean;
    /** Seconds a payment that a quote (or pending creation) could still honour waits for its step 2 after that deadline before it is refunded; also how long an expired pending creation keeps its slug. */
    presentGraceSec: number;
    /** How often held payments past their grace are refunded and expired pending creations released. */
    sweepIntervalMs: number;
    /** Standard x402 v2 (docs/x402-standard.md): the CAIP-2 network; undefined → from FAMILY_A_NETWORK (embedded: Solana devnet's id). */
    x402Network: string | undefined;
    /** Highest compute-unit limit a payer's transaction may set (the fee payer pays for it). */
    x402MaxComputeUnits: number;
    /** Highest compute-unit price (micro-lamports) a payer's transaction may set. */
    x402MaxPriceMicroLamports: number;
    /** USDC added to a standard buy when the platform must open the buyer's outcome-token account (its rent). */
    x402AccountFeeUsdc: number;
    /** Below this balance (SOL) the fee payer is reported low: a log warning and the pmx_family_a_fee_payer_lamports gauge. */
    x402FeePayerMinSol: number;
    /** Standard payments one payer may present per minute (per API node). */
    x402PayerPerMinute: number;
  };
  // Family C (orderbook)
  clob: {
    /** Taker fee in bps of the taker's USDC (exchange program config; public facts: 25). */
    takerFeeBps: number;
    /** Maker rebate in bps, at most the taker fee; the protocol keeps the difference. */
    makerRebateBps: number;
    /** A matcher's lease on a market: renewed every quarter of it; a dead matcher's markets move after it. */
    leaseMs: number;
    /** How often the settlement keeper reconciles batches in flight and plans waiting fills. */
    settleSweepMs: number;
    /** Settlement batches one market may have in flight at once (bounds the keeper's load on the cluster). */
    maxBatchesInFlight: number;
    /** How often positions and PnL are brought up to date even when nothing announced a change. */
    positionsIntervalMs: number;
    /** How often the price candles are brought up to date when nothing announced a fill (a failed fill is seen then). */
    candlesIntervalMs: number;
    /** How long market creation waits for the market account to land before answering 202 `creating`. */
    createWaitMs: number;
  };
  /** Family C WebSockets (docs/websockets.md). */
  ws: {
    /** A connection that sends nothing for this long is closed with 4008 (public facts: 30 s). */
    idleTimeoutMs: number;
    /** A connection with more unsent bytes than this is dropped with 4010 (a slow consumer). */
    maxBufferedBytes: number;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];

  function read<T>(key: string, parse: Parser<T>, fallback: T): T;
  function read<T>(key: string, parse: Parser<T>): T | undefined;
  function read<T>(key: string, parse: Parser<T>, fallback?: T): T | undefined {
    const raw = env[key];
    if (raw === undefined || raw.trim() === '') return fallback;
    try {
      return parse(raw.trim());
    } catch (error) {
      problems.push(`${key}: ${(error as Error).message}`);
      return fallback;
    }
  }

  const dataDir = path.resolve(read('DATA_DIR', str, './data'));
  const chainKind = read('CHAIN', oneOf('embedded', 'rpc'), 'embedded');
  const ledgerHost = read('LEDGER_HOST', str, '127.0.0.1');
  const config: Config = {
    host: read('HOST', str, '127.0.0.1'),
    port: read('PORT', int(0, 65535), 8080),
    dataDir,
    logLevel: read('LOG_LEVEL', oneOf<LogLevel>('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'), 'info'),
    logPretty: read('LOG_PRETTY', bool),
    redisUrl: read('REDIS_URL', url('redis', 'rediss')),
    queuePrefix: read('QUEUE_PREFIX', str, 'pmx'),
    databaseUrl: read('DATABASE_URL', url('postgres', 'postgresql', 'sqlite')),
    adminToken: read('ADMIN_TOKEN', str),
    keysDir: path.resolve(read('KEYS_DIR', str, path.join(dataDir, 'keys'))),
    metricsToken: read('METRICS_TOKEN', str),
    metricsPort: read('METRICS_PORT', int(0, 65535)),
    roles: read('ROLES', list(ROLES), [...ROLES]),
    rateLimit: {
      readPerMinute: read('RATE_LIMIT_READ_PER_MIN', int(1, 1_000_000), 600),
      writePerMinute: read('RATE_LIMIT_WRITE_PER_MIN', int(1, 1_000_000), 300),
    },
    http: {
      trustProxy: read('TRUST_PROXY', trustProxy, false),
      requestTimeoutMs: read('HTTP_REQUEST_TIMEOUT_MS', int(1_000, 600_000), 30_000),
      maxConnectionsPerClient: read('HTTP_MAX_CONNECTIONS_PER_CLIENT', int(0, 100_000), 256),
    },
    txBuildTimeoutMs: read('TX_BUILD_TIMEOUT_MS', int(100, 120_000), 10_000),
    shutdownTimeoutMs: read('SHUTDOWN_TIMEOUT_MS', int(100, 120_000), 8_000),
    heartbeatIntervalMs: read('HEARTBEAT_INTERVAL_MS', int(1_000, 3_600_000), 5_000),
    indexIntervalMs: read('INDEX_INTERVAL_MS', int(1_000, 3_600_000), 30_000),
    outboundResumeMs: read('OUTBOUND_RESUME_INTERVAL_MS', int(1_000, 3_600_000), 15_000),
    consoleSampleRetentionHours: read('CONSOLE_SAMPLE_RETENTION_HOURS', int(1, 24 * 90), 48),
    operatorSessionIdleMin: read('OPERATOR_SESSION_IDLE_MIN', int(1, 24 * 60), 30),
    operatorSessionMaxHours: read('OPERATOR_SESSION_MAX_HOURS', int(1, 24 * 30), 12),
    consoleTreasuryMinSol: read('CONSOLE_TREASURY_MIN_SOL', decimal(0, 1_000_000), 0.1),
    consoleOperatorMinSol: read('CONSOLE_OPERATOR_MIN_SOL', decimal(0, 1_000_000), 1),
    protocolFeeSweepMs: read('PROTOCOL_FEE_SWEEP_INTERVAL_MS', int(0, 86_400_000), 600_000),
    chain: {
      kind: chainKind,
      rpcUrl: read('RPC_URL', url('http', 'https')),
      wsUrl: read('WS_URL', url('ws', 'wss')),
      commitment: read('COMMITMENT', oneOf('processed', 'confirmed', 'finalized'), 'confirmed'),
      ledgerRpcPort: read('LEDGER_RPC_PORT', int(0, 65534), 8899),
      ledgerHost,
      // Anyone who reaches a non-loopback ledger could mint themselves SOL and USDC.
      ledgerFaucet: read('LEDGER_FAUCET', bool, isLoopback(ledgerHost)),
      usdcMint: read('USDC_MINT', address),
      marketProgramId: read('MARKET_PROGRAM_ID', address),
      exchangeProgramId: read('EXCHANGE_PROGRAM_ID', address),
    },
    // Family A
    familyA: {
      network: read('FAMILY_A_NETWORK', oneOf('solana-localnet', 'solana-devnet', 'solana-mainnet')),
      creationFeeUsdc: read('FAMILY_A_CREATION_FEE_USDC', int(0, 1_000_000), 600),
      creationFeeSol: read('FAMILY_A_CREATION_FEE_SOL', decimal(0, 1_000), 0.3),
      creationWindowSec: read('FAMILY_A_CREATION_WINDOW_SEC', int(10, 86_400), 300),
      targetPrice: read('FAMILY_A_TARGET_PRICE', decimal(0.000001, 1), 0.0005),
      marketLimit: read('FAMILY_A_MARKET_LIMIT', int(1, 1_000_000_000_000), 100_000),
      deliveryWaitMs: read('FAMILY_A_DELIVERY_WAIT_MS', int(0, 120_000), 20_000),
      requireApiKey: read('FAMILY_A_REQUIRE_API_KEY', bool, false),
      presentGraceSec: read('FAMILY_A_PRESENT_GRACE_SEC', int(0, 604_800), 600),
      sweepIntervalMs: read('FAMILY_A_SWEEP_INTERVAL_MS', int(500, 3_600_000), 15_000),
      x402Network: read('FAMILY_A_X402_NETWORK', caip2Solana),
      x402MaxComputeUnits: read('FAMILY_A_X402_MAX_COMPUTE_UNITS', int(20_000, 1_400_000), 50_000),
      x402MaxPriceMicroLamports: read('FAMILY_A_X402_MAX_PRICE_MICROLAMPORTS', int(1, 10_000_000), 50_000),
      x402AccountFeeUsdc: read('FAMILY_A_X402_ACCOUNT_FEE_USDC', decimal(0, 100), 0.25),
      x402FeePayerMinSol: read('FAMILY_A_X402_FEE_PAYER_MIN_SOL', decimal(0, 1_000), 0.05),
      x402PayerPerMinute: read('FAMILY_A_X402_PAYER_PER_MINUTE', int(1, 100_000), 30),
    },
    clob: {
      takerFeeBps: read('CLOB_TAKER_FEE_BPS', int(0, 1_000), 25),
      makerRebateBps: read('CLOB_MAKER_REBATE_BPS', int(0, 1_000), 5),
      leaseMs: read('CLOB_MATCHER_LEASE_MS', int(1_000, 600_000), 10_000),
      settleSweepMs: read('CLOB_SETTLE_SWEEP_INTERVAL_MS', int(500, 600_000), 2_000),
      maxBatchesInFlight: read('CLOB_SETTLE_MAX_BATCHES_IN_FLIGHT', int(1, 1_000), 16),
      positionsIntervalMs: read('CLOB_POSITIONS_INTERVAL_MS', int(1_000, 3_600_000), 10_000),
      candlesIntervalMs: read('CLOB_CANDLES_INTERVAL_MS', int(500, 3_600_000), 5_000),
      createWaitMs: read('CLOB_CREATE_WAIT_MS', int(0, 120_000), 20_000),
    },
    ws: {
      idleTimeoutMs: read('WS_IDLE_TIMEOUT_MS', int(1_000, 600_000), 30_000),
      maxBufferedBytes: read('WS_MAX_BUFFERED_BYTES', int(65_536, 1_073_741_824), 1_048_576),
    },
  };

  if (config.adminToken !== undefined && config.adminToken.length < 16) {
    problems.push('ADMIN_TOKEN: must be at least 16 characters');
  }
  if (config.metricsToken !== undefined && config.metricsToken.length < 16) {
    problems.push('METRICS_TOKEN: must be at least 16 characters');
  }
  if (chainKind === 'rpc' && config.chain.rpcUrl === undefined) {
    problems.push('RPC_URL: required when CHAIN=rpc');
  }
  if (chainKind === 'embedded' && !config.roles.includes('ledger') && config.chain.rpcUrl === undefined) {
    // No guessing 127.0.0.1:8899: whatever listens there may be another ledger (docs/operations.md).
    problems.push('RPC_URL: required when CHAIN=embedded and ROLES has no "ledger" (the ledger process\'s JSON-RPC URL)');
  }
  if (chainKind === 'rpc' && config.chain.usdcMint === undefined) {
    problems.push('USDC_MINT: required when CHAIN=rpc (mainnet: EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v)');
  }
  if (config.clob.makerRebateBps > config.clob.takerFeeBps) {
    problems.push('CLOB_MAKER_REBATE_BPS: must not exceed CLOB_TAKER_FEE_BPS (the protocol fee is their difference)');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

// Family A: a decimal within [min, max] (fees and prices in human units).
function decimal(min: number, max: number): Parser<number> {
  return (raw) => {
    if (!/^\d+(\.\d{1,6})?$/.test(raw)) throw new Error(`must be a decimal number with at most 6 decimals, got "${raw}"`);
    const value = Number(raw);
    if (value < min || value > max) throw new Error(`must be between ${min} and ${max}, got ${value}`);
    return value;
  };
}

/** Whether a bind address only this machine can reach (a faucet there is safe to leave on). */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Whether this process runs the given role (the default ROLES lists every role). */
export function hasRole(config: Config, role: Role): boolean {
  return config.roles.includes(role);
}
