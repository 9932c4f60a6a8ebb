/** Operator views of outbound transactions: list by status or those waiting for funds, re-drive one. */
import type { Kysely } from 'kysely';
import { json, num } from '../../../db/codec.js';
import {
  expediteAwaitingFunds,
  listAwaitingFunds,
  listOutboundByStatus,
  resetFailedOutbound,
  summarizeAwaitingFunds,
  type OutboundRow,
} from '../../../db/repositories/outbound-transactions.repository.js';
import type { Database } from '../../../db/schema.js';
import { DomainError } from '../../domain/errors.js';

type Listed = Pick<
  OutboundRow,
  | 'id'
  | 'idempotency_key'
  | 'purpose'
  | 'status'
  | 'signature'
  | 'attempts'
  | 'last_error'
  | 'created_at'
  | 'updated_at'
  | 'awaiting_funds_since'
  | 'shortfall'
>;

export interface Shortfall {
  asset: string;
  missingRaw: string;
  wallets: string[];
}

function present(r: Listed) {
  return {
    id: r.id,
    idempotencyKey: r.idempotency_key,
    purpose: r.purpose,
    status: r.status,
    signature: r.signature,
    attempts: num(r.attempts),
    lastError: r.last_error,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    awaitingFundsSince: r.status === 'pending' || r.status === 'sent' ? r.awaiting_funds_since : null,
    shortfall: json<Shortfall | null>(r.shortfall, null),
  };
}

/** `awaiting_funds` is not a row status: the unfinished rows a platform wallet cannot cover yet. */
export async function listOutbound(db: Kysely<Database>, status: OutboundRow['status'] | 'awaiting_funds') {
  const rows = status === 'awaiting_funds' ? await listAwaitingFunds(db, 100) : await listOutboundByStatus(db, status, 100);
  return rows.map(present);
}

/**
 * Re-drive: a failed intent goes back to pending with a fresh attempt budget; one waiting for
 * funds is checked again at once instead of after its backoff. The caller dispatches the job.
 */
export async function retryOutbound(db: Kysely<Database>, id: string): Promise<'reset' | 'expedited'> {
  const at = new Date().toISOString();
  if (await resetFailedOutbound(db, id, at)) return 'reset';
  if (await expediteAwaitingFunds(db, id, at)) return 'expedited';
  throw new DomainError('not_found', 'NOT_FOUND', `No failed or underfunded outbound transaction ${id}`);
}

/** Per purpose: how many wait for funds and how long the oldest has waited (seconds). */
export async function awaitingFundsSummary(db: Kysely<Database>, nowMs = Date.now()) {
  const rows = await summarizeAwaitingFunds(db);
  return rows.map((r) => ({
    purpose: r.purpose,
    count: num(r.n),
    oldestSeconds: r.oldest ? Math.max(0, (nowMs - Date.parse(String(r.oldest))) / 1000) : 0,
  }));
}
