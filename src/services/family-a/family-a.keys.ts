/**
 * Family A's platform keypairs, derived, never stored one by one: a 32-byte master seed in
 * DATA_DIR/keys/family-a-seed (mode 0600, created on first start) and
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

  static load(dataDir: string): FamilyAKeys {
    const file = path.join(dataDir, 'keys', 'family-a-seed');
    if (!fs.existsSync(file)) writePrivateFile(file, `${randomBytes(32).toString('hex')}\n`);
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
