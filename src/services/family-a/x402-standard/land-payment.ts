/**
 * Lands a recorded, co-signed payment: the fate of its signature, sending the stored bytes again
 * while they can still land. Resending is safe: the bytes are the same, so the cluster takes them
 * at most once. A payment is `expired` only when its status is still unknown after its blockhash
 * stopped being valid (then it can never land), and `rejected` only when the cluster refused the
 * bytes themselves (a preflight failure: nothing landed, no fee was charged).
 */
import { ChainError } from '../../../chain/chain-errors.js';
import { awaitSignature, statusFate } from '../../../chain/confirmation.js';
import type { X402PaymentRow } from '../../../../db/repositories/family-a-x402.repository.js';
import type { FamilyADeps } from '../family-a.deps.js';

export type LandingFate = { fate: 'ok' | 'err' | 'expired' | 'pending' } | { fate: 'rejected'; code: string };

const CONFIRM_WAIT_MS = 30_000;

async function currentFate(deps: FamilyADeps, signature: string): Promise<'ok' | 'err' | 'none'> {
  const [status] = await deps.chain.getSignatureStatuses([signature]);
  return statusFate(status);
}

/** Unknown and unsendable: expired once the blockhash is no longer valid (checked after the status, so a late landing is seen). */
async function expiredOrPending(deps: FamilyADeps, row: X402PaymentRow): Promise<LandingFate> {
  if (await deps.chain.isBlockhashValid(row.blockhash)) return { fate: 'pending' };
  const fate = await currentFate(deps, row.signature);
  return fate === 'none' ? { fate: 'expired' } : { fate };
}

export async function landPayment(deps: FamilyADeps, row: X402PaymentRow, waitMs = CONFIRM_WAIT_MS): Promise<LandingFate> {
  const now = await currentFate(deps, row.signature);
  if (now !== 'none') return { fate: now };
  if (!(await deps.chain.isBlockhashValid(row.blockhash))) return expiredOrPending(deps, row);
  try {
    await deps.chain.sendRawTransaction(Buffer.from(row.transaction, 'base64'));
  } catch (error) {
    if (!(error instanceof ChainError)) throw error;
    if (error.code === 'BLOCKHASH_NOT_FOUND') return expiredOrPending(deps, row);
    if (error.retryable) return { fate: 'pending' };
    if (error.code !== 'ALREADY_PROCESSED') {
      // Refused at preflight; it may still be a duplicate of bytes that landed a moment ago.
      const again = await currentFate(deps, row.signature);
      return again === 'none' ? { fate: 'rejected', code: error.code } : { fate: again };
    }
  }
  const fate = await awaitSignature(deps.chain, row.signature, { timeoutMs: waitMs });
  if (fate === 'ok' || fate === 'err') return { fate };
  return expiredOrPending(deps, row);
}
