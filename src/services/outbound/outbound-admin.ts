/** Operator views of outbound transactions: list by status, re-drive a failed one. */
import type { Kysely } from 'kysely';
import { listOutboundByStatus, resetFailedOutbound, type OutboundRow } from '../../../db/repositories/outbound-transactions.repository.js';
import type { Database } from '../../../db/schema.js';
import { DomainError } from '../../domain/errors.js';

export async function listOutbound(db: Kysely<Database>, status: OutboundRow['status']) {
  const rows = await listOutboundByStatus(db, status, 100);
  return rows.map((r) => ({
    id: r.id, idempotencyKey: r.idempotency_key, purpose: r.purpose, status: r.status, signature: r.signature,
    attempts: Number(r.attempts), lastError: r.last_error, createdAt: r.created_at, updatedAt: r.updated_at,
  }));
}

/** Back to pending with a fresh attempt budget; the caller dispatches the job. */
export async function retryFailedOutbound(db: Kysely<Database>, id: string): Promise<void> {
  if (!(await resetFailedOutbound(db, id, new Date().toISOString()))) throw new DomainError('not_found', 'NOT_FOUND', `No failed outbound transaction ${id}`);
}
