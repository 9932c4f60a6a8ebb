/**
 * Standard x402 v2 payloads built by hand, laid out exactly as @x402/svm's client builds them
 * (compute-unit limit, compute-unit price, TransferChecked, memo; fee payer first; the payer's
 * signature only), so that a test can change one thing at a time and see it refused.
 */
import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import type { AddressLookupTableAccount, Keypair } from '@solana/web3.js';
import { ComputeBudgetProgram, PublicKey, TransactionInstruction, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';

export const MEMO_PROGRAM = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

export function requirementOf(paymentRequiredHeader: string): { required: PaymentRequired; accepted: PaymentRequirements } {
  const required = decodePaymentRequiredHeader(paymentRequiredHeader) as PaymentRequired;
  return { required, accepted: required.accepts[0]! };
}

export interface Build {
  payer: Keypair;
  accepted: PaymentRequirements;
  /** Change the instructions before compiling (the standard four by default). */
  instructions?: (standard: TransactionInstruction[], parts: StandardParts) => TransactionInstruction[];
  lookupTables?: AddressLookupTableAccount[];
  extraSigners?: Keypair[];
}

export interface StandardParts {
  feePayer: PublicKey;
  mint: PublicKey;
  source: PublicKey;
  destination: PublicKey;
  amount: bigint;
  memo: string;
  /** The payer: the transfer's authority. */
  authority: PublicKey;
}

export function transferChecked(parts: StandardParts, overrides: Partial<StandardParts> = {}): TransactionInstruction {
  const p = { ...parts, ...overrides };
  return createTransferCheckedInstruction(p.source, p.mint, p.destination, p.authority, p.amount, 6);
}

export function memoInstruction(text: string, keys: PublicKey[] = []): TransactionInstruction {
  return new TransactionInstruction({
    programId: MEMO_PROGRAM,
    keys: keys.map((pubkey) => ({ pubkey, isSigner: false, isWritable: false })),
    data: Buffer.from(text, 'utf8'),
  });
}

/** The PAYMENT-SIGNATURE header of a hand-built payment (partially signed by its payer and any extra signers). */
export function paymentSignature(build: Build): string {
  const { accepted, payer } = build;
  const extra = accepted.extra as { feePayer: string; memo: string; recentBlockhash: string };
  const mint = new PublicKey(accepted.asset);
  const parts: StandardParts = {
    feePayer: new PublicKey(extra.feePayer),
    mint,
    source: getAssociatedTokenAddressSync(mint, payer.publicKey, true),
    destination: getAssociatedTokenAddressSync(mint, new PublicKey(accepted.payTo), true),
    amount: BigInt(accepted.amount),
    memo: extra.memo,
    authority: payer.publicKey,
  };
  const standard = [
    ComputeBudgetProgram.setComputeUnitLimit({ units: 20_000 }),
    ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1 }),
    transferChecked(parts),
    memoInstruction(parts.memo),
  ];
  const message = new TransactionMessage({
    payerKey: parts.feePayer,
    recentBlockhash: extra.recentBlockhash,
    instructions: build.instructions ? build.instructions(standard, parts) : standard,
  }).compileToV0Message(build.lookupTables);
  const tx = new VersionedTransaction(message);
  tx.sign([payer, ...(build.extraSigners ?? [])]);
  return encodePaymentSignatureHeader({
    x402Version: 2,
    accepted,
    payload: { transaction: Buffer.from(tx.serialize()).toString('base64') },
  });
}
