// Test helpers: temp dirs and signed transactions built with web3.js.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Keypair } from '@solana/web3.js';
import { TransactionMessage, VersionedTransaction, type TransactionInstruction } from '@solana/web3.js';

export function tempDir(prefix = 'chain-test-'): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export function signedTx(
  blockhash: string,
  payer: Keypair,
  instructions: TransactionInstruction[],
  extraSigners: Keypair[] = [],
  version: 'legacy' | 0 = 0,
): Uint8Array {
  const msg = new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions });
  const tx = new VersionedTransaction(version === 0 ? msg.compileToV0Message() : msg.compileToLegacyMessage());
  tx.sign([payer, ...extraSigners]);
  return tx.serialize();
}
