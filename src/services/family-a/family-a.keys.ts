/**
 * Family A's platform keypairs, derived, never stored one by one: a 32-byte master seed in
 * KEYS_DIR/family-a-seed (default DATA_DIR/keys; mode 0600, created on first start by a process
 * that may create keys, see `load`) and
 * HMAC-SHA512(seed, "pmx-family-a/v1/<role>") → the first 32 bytes are an Ed25519 seed.
 * Roles: `platform` (receives claim transfers and creation fees), `option/<market>/<side>` (the
 * option wallets buyers pay), `mint/<market>/<side>` (the outcome-token mint accounts, so a
 * retried setup recreates the same addresses). Keys never leave this module's callers' signers.
 */
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Keypair } from '@solana/web3.js';
import type { OutcomeSide } from '../../domain/family-a/side.js';
import { assertPrivateFile, writePrivateFile } from '../../infra/secret-file.js';

export class FamilyAKeys {
  private readonly cache = new Map<string, Keypair>();

  constructor(private readonly seed: Buffer) {
    if (seed.length !== 32) throw new Error('family-a seed must be 32 bytes');
  }

  /**
   * `create: false` (a process that reaches another's ledger): a missing seed is an error, never a
   * fresh one — two seeds would mean two sets of platform wallets for one database.
   */
  static load(keysDir: string, create = true): FamilyAKeys {
    const file = path.join(keysDir, 'family-a-seed');
    if (!fs.existsSync(file)) {
      if (!create) throw new Error(`no Family A seed at ${file}: copy the ledger process's KEYS_DIR here, or set KEYS_DIR to it`);
      writePrivateFile(file, `${randomBytes(32).toString('hex')}\n`);
    }
    assertPrivateFile(file);
    return new FamilyAKeys(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex'));
  }

  platform(): Keypair {
    return this.derive('platform');
  }

  optionWallet(marketId: string, side: OutcomeSide): Keypair {
    return this.derive(`option/${marketId}/${side}`);
  }

  /** Fee payer of standard x402 payments: holds only SOL, never an authority of anything. */
  x402FeePayer(): Keypair {
    return this.derive('x402-fee-payer');
  }

  mint(marketId: string, side: OutcomeSide): Keypair {
    return this.derive(`mint/${marketId}/${side}`);
  }

  private derive(role: string): Keypair {
    let kp = this.cache.get(role);
    if (!kp) {
      const digest = createHmac('sha512', this.seed).update(`pmx-family-a/v1/${role}`).digest();
      kp = Keypair.fromSeed(digest.subarray(0, 32));
      this.cache.set(role, kp);
    }
    return kp;
  }
}
