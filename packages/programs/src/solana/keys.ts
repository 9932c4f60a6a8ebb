/**
 * Keypair files in solana-keygen format (a JSON array of the 64 secret-key bytes), mode 0600.
 * Used by the embedded ledger for its platform wallets and by the rpc adapter's composition root
 * to load the same wallets for a real cluster. Key material is never logged or returned.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Keypair } from '@solana/web3.js';

/** A missing, malformed or world-readable key file: a configuration error, fatal at startup. */
export class KeyFileError extends Error {
  override readonly name = 'KeyFileError';
}

export function readKeypair(path: string): Keypair {
  const mode = statSync(path).mode & 0o777;
  // A key file readable by group or others is a leak waiting to happen: refuse it loudly.
  if ((mode & 0o077) !== 0) {
    throw new KeyFileError(`key file ${path} has mode ${mode.toString(8)}; expected 600 (chmod 600 ${path})`);
  }
  const bytes: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!Array.isArray(bytes) || bytes.length !== 64 || !bytes.every((b) => Number.isInteger(b) && b >= 0 && b < 256)) {
    throw new KeyFileError(`key file ${path} is not a solana-keygen keypair (JSON array of 64 bytes)`);
  }
  return Keypair.fromSecretKey(Uint8Array.from(bytes as number[]));
}

export function writeKeypair(path: string, keypair: Keypair): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // `wx` never clobbers an existing key; mode applies at creation, chmod covers a lax umask.
  writeFileSync(path, JSON.stringify(Array.from(keypair.secretKey)), { mode: 0o600, flag: 'wx' });
  chmodSync(path, 0o600);
}

/** Loads the keypair at `path`, creating it (mode 0600) on first use. */
export function loadOrCreateKeypair(path: string): Keypair {
  if (existsSync(path)) return readKeypair(path);
  const keypair = Keypair.generate();
  writeKeypair(path, keypair);
  return keypair;
}

/** File names of the platform keypairs under DATA_DIR/keys/ (shared by both chain adapters). */
export const PLATFORM_KEY_FILES = {
  usdcMint: 'usdc-mint.json',
  usdcMintAuthority: 'usdc-mint-authority.json',
  treasury: 'treasury.json',
  exchangeOperator: 'exchange-operator.json',
  protocolFee: 'protocol-fee.json',
  /** The embedded ledger's own fee payer and faucet source; meaningless on a real cluster. */
  ledgerFaucet: 'ledger-faucet.json',
} as const;

export type PlatformKeyName = keyof typeof PLATFORM_KEY_FILES;

export function platformKeyPath(dataDir: string, name: PlatformKeyName): string {
  return platformKeyFile(join(dataDir, 'keys'), name);
}

/** The file of a platform keypair in a keys directory of its own (KEYS_DIR: one copy per machine). */
export function platformKeyFile(keysDir: string, name: PlatformKeyName): string {
  return join(keysDir, PLATFORM_KEY_FILES[name]);
}
