/**
 * Reads a caller's transfer from the chain for verification: it must exist and be confirmed (or
 * finalized). The transfer rules themselves are pure (src/domain/family-a/transfer-verification).
 */
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';
import { DomainError } from '../../domain/errors.js';
import type { CreditSource } from '../../domain/family-a/inbound-credits.js';
import { verifyLamportTransfer, verifyTransfer, type TransferExpectation } from '../../domain/family-a/transfer-verification.js';
import type { FamilyADeps } from './family-a.deps.js';

/** A landed transaction as verification reads it (token deltas carry their account index). */
export interface LandedTransfer extends CreditSource {
  signature: string;
  blockTimeMs: number | null;
}

export type FailureLabel = 'Payment verification failed' | 'Token transfer verification failed';

export function paymentFailed(label: FailureLabel, reason: string, extra: Record<string, unknown> = {}): DomainError {
  return new DomainError('payment_required', 'PAYMENT_FAILED', `${label}: ${reason}`, extra);
}

export async function fetchLandedTransfer(deps: FamilyADeps, signature: string, label: FailureLabel): Promise<LandedTransfer> {
  const [status] = await deps.chain.getSignatureStatuses([signature]);
  if (!status) throw paymentFailed(label, `transaction ${signature} not found`);
  if (status.confirmationStatus === 'processed')
    throw paymentFailed(label, `transaction ${signature} is not confirmed yet; retry once it is confirmed`);
  const tx = await deps.chain.getTransaction(signature, 'confirmed');
  if (!tx) throw paymentFailed(label, `transaction ${signature} not found`);
  return {
    signature,
    err: tx.err,
    signers: tx.signers,
    tokenBalances: tx.tokenBalances,
    lamportBalances: tx.lamportBalances,
    blockTimeMs: tx.blockTime === null ? null : tx.blockTime * 1000,
  };
}

export function associatedAccount(mint: string, owner: string): string {
  return getAssociatedTokenAddressSync(new PublicKey(mint), new PublicKey(owner), true).toBase58();
}

export function requireTransfer(landed: LandedTransfer, want: Omit<TransferExpectation, 'recipientAccount'>, label: FailureLabel): bigint {
  const check = verifyTransfer(landed, { ...want, recipientAccount: associatedAccount(want.mint, want.recipientOwner) });
  if (!check.ok) throw paymentFailed(label, check.reason);
  return check.moved;
}

export function requireLamports(
  landed: LandedTransfer,
  want: { recipient: string; payer: string; minLamports: bigint },
  label: FailureLabel,
): bigint {
  const check = verifyLamportTransfer(landed, want);
  if (!check.ok) throw paymentFailed(label, check.reason);
  return check.moved;
}

export function assertWallet(value: string, field = 'wallet'): string {
  try {
    return new PublicKey(value).toBase58();
  } catch {
    throw new DomainError('invalid', 'VALIDATION_ERROR', `${field} is not a valid Solana address`);
  }
}

/** The payload names the network the payment was made on; another cluster's signature means nothing here. */
export function assertNetwork(deps: FamilyADeps, network: string): void {
  if (network !== deps.settings.network) {
    throw new DomainError(
      'invalid',
      'VALIDATION_ERROR',
      `Malformed X-PAYMENT header: network must be ${deps.settings.network}, got ${network}`,
    );
  }
}
