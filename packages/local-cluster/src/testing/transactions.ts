// Test helpers: temp dirs and signed transactions built with web3.js.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAssociatedTokenAccountIdempotentInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey, TransactionMessage, VersionedTransaction, type TransactionInstruction } from '@solana/web3.js';
import type { EmbeddedLedger } from '../ledger.js';

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

/**
 * A payer (`alice`, funded with `lamports` and `usdc` raw units) and a recipient (`bob`) whose USDC
 * account already exists: the world of the ledger's transfer tests. `from` and `to` are their
 * USDC token accounts.
 */
export async function transferPair(ledger: EmbeddedLedger, lamports: bigint, usdc: bigint) {
  const alice = Keypair.generate();
  const bob = Keypair.generate();
  const mint = new PublicKey(ledger.bootstrapInfo.usdcMint);
  await ledger.airdrop(alice.publicKey, lamports);
  await ledger.mintUsdc(alice.publicKey, usdc);
  const from = getAssociatedTokenAddressSync(mint, alice.publicKey);
  const to = getAssociatedTokenAddressSync(mint, bob.publicKey);
  await ledger.sendRawTransaction(
    signedTx(ledger.getLatestBlockhash().blockhash, alice, [
      createAssociatedTokenAccountIdempotentInstruction(alice.publicKey, to, bob.publicKey, mint),
    ]),
  );
  return { alice, bob, mint, from, to };
}
