import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, ROLES, hasRole, loadConfig } from '../../config/config.js';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('loadConfig accepted a bad configuration');
}

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    const config = loadConfig({});
    expect(config.host).toBe('127.0.0.1');
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(path.isAbsolute(config.dataDir)).toBe(true);
    expect(config.roles).toEqual([...ROLES]);
    for (const role of ROLES) expect(hasRole(config, role)).toBe(true);
    expect(config.logLevel).toBe('info');
    expect(config.redisUrl).toBeUndefined();
    expect(config.databaseUrl).toBeUndefined();
    expect(config.rateLimit).toEqual({ readPerMinute: 600, writePerMinute: 300 });
    expect(config.chain.kind).toBe('embedded');
  });

  it('treats blank values as unset and parses valid ones', () => {
    const config = loadConfig({
      PORT: '  ',
      DATA_DIR: '/tmp/pmx-x',
      ROLES: 'api, worker',
      RPC_URL: 'http://127.0.0.1:8899',
      REDIS_URL: 'redis://127.0.0.1:6390',
      LOG_PRETTY: 'false',
    });
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe('/tmp/pmx-x');
    expect(config.roles).toEqual(['api', 'worker']);
    expect(hasRole(config, 'ledger')).toBe(false);
    expect(config.redisUrl).toBe('redis://127.0.0.1:6390');
    expect(config.logPretty).toBe(false);
  });

  it('lists every bad key in one ConfigError', () => {
    const problems = problemsOf({ PORT: 'abc', ROLES: 'foo', REDIS_URL: 'http://x', LOG_LEVEL: 'loud' });
    expect(problems).toHaveLength(4);
    const keys = problems.map((p) => p.split(':', 1)[0]).sort();
    expect(keys).toEqual(['LOG_LEVEL', 'PORT', 'REDIS_URL', 'ROLES']);
    expect(problems.find((p) => p.startsWith('PORT'))).toContain('abc');
    expect(problems.find((p) => p.startsWith('ROLES'))).toContain('foo');
    const error = (() => {
      try {
        loadConfig({ PORT: 'abc', ROLES: 'foo' });
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    expect(error?.message).toMatch(/PORT[\s\S]*ROLES/);
  });

  it('takes the standard x402 network as a CAIP-2 Solana id, and its caps within bounds', () => {
    const config = loadConfig({ FAMILY_A_X402_NETWORK: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', FAMILY_A_X402_ACCOUNT_FEE_USDC: '0' });
    expect(config.familyA.x402Network).toBe('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp');
    expect(config.familyA.x402AccountFeeUsdc).toBe(0);
    expect(loadConfig({}).familyA).toMatchObject({
      x402Network: undefined,
      x402MaxComputeUnits: 50_000,
      x402MaxPriceMicroLamports: 50_000,
    });
    const problems = problemsOf({ FAMILY_A_X402_NETWORK: 'solana-devnet', FAMILY_A_X402_MAX_COMPUTE_UNITS: '100' });
    expect(problems.map((p) => p.split(':', 1)[0]).sort()).toEqual(['FAMILY_A_X402_MAX_COMPUTE_UNITS', 'FAMILY_A_X402_NETWORK']);
    expect(problems.find((p) => p.startsWith('FAMILY_A_X402_NETWORK'))).toContain('CAIP-2');
  });

  it('rejects out-of-range ports and short admin and metrics tokens', () => {
    expect(problemsOf({ PORT: '70000' })[0]).toMatch(/^PORT: must be between/);
    expect(problemsOf({ ADMIN_TOKEN: 'short' })).toEqual(['ADMIN_TOKEN: must be at least 16 characters']);
    expect(problemsOf({ METRICS_TOKEN: 'short' })).toEqual(['METRICS_TOKEN: must be at least 16 characters']);
    expect(loadConfig({ METRICS_TOKEN: 'a-metrics-token-of-32-characters' }).metricsToken).toBe('a-metrics-token-of-32-characters');
    expect(loadConfig({}).metricsToken).toBeUndefined();
  });

  it('requires RPC_URL and USDC_MINT when CHAIN=rpc', () => {
    const problems = problemsOf({ CHAIN: 'rpc' });
    expect(problems.map((p) => p.split(':', 1)[0]).sort()).toEqual(['RPC_URL', 'USDC_MINT']);
    expect(problemsOf({ CHAIN: 'rpc', RPC_URL: 'https://api.mainnet-beta.solana.com' })).toEqual([
      expect.stringMatching(/^USDC_MINT: required when CHAIN=rpc/),
    ]);
    const config = loadConfig({
      CHAIN: 'rpc',
      RPC_URL: 'https://api.mainnet-beta.solana.com',
      USDC_MINT: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    });
    expect(config.chain).toMatchObject({ kind: 'rpc', rpcUrl: 'https://api.mainnet-beta.solana.com' });
  });

  it("requires RPC_URL of a process that reaches another process's ledger (no fixed 127.0.0.1:8899)", () => {
    expect(problemsOf({ ROLES: 'api' })).toEqual([
      'RPC_URL: required when CHAIN=embedded and ROLES has no "ledger" (the ledger process\'s JSON-RPC URL)',
    ]);
    const config = loadConfig({ ROLES: 'worker,indexer', RPC_URL: 'http://10.0.0.5:8899', WS_URL: 'ws://10.0.0.5:8900' });
    expect(config.chain).toMatchObject({ kind: 'embedded', rpcUrl: 'http://10.0.0.5:8899', wsUrl: 'ws://10.0.0.5:8900' });
    expect(loadConfig({ ROLES: 'ledger,worker' }).chain.rpcUrl).toBeUndefined();
  });

  it('turns the faucet off when the ledger binds a non-loopback address, unless LEDGER_FAUCET says so', () => {
    expect(loadConfig({}).chain).toMatchObject({ ledgerHost: '127.0.0.1', ledgerFaucet: true });
    expect(loadConfig({ LEDGER_HOST: '::1' }).chain.ledgerFaucet).toBe(true);
    expect(loadConfig({ LEDGER_HOST: '0.0.0.0' }).chain).toMatchObject({ ledgerHost: '0.0.0.0', ledgerFaucet: false });
    expect(loadConfig({ LEDGER_HOST: '10.0.0.5' }).chain.ledgerFaucet).toBe(false);
    expect(loadConfig({ LEDGER_HOST: '0.0.0.0', LEDGER_FAUCET: 'true' }).chain.ledgerFaucet).toBe(true);
    expect(loadConfig({ LEDGER_FAUCET: 'false' }).chain.ledgerFaucet).toBe(false);
    expect(problemsOf({ LEDGER_FAUCET: 'maybe' })[0]).toMatch(/^LEDGER_FAUCET: /);
  });

  it('reads the keys from KEYS_DIR, else DATA_DIR/keys', () => {
    expect(loadConfig({ DATA_DIR: '/tmp/pmx-k' }).keysDir).toBe('/tmp/pmx-k/keys');
    expect(loadConfig({ DATA_DIR: '/tmp/pmx-k', KEYS_DIR: '/etc/pmx/keys' }).keysDir).toBe('/etc/pmx/keys');
  });
});
