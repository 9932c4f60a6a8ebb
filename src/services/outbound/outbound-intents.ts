/**
 * Recording an outbound intent: done inside the caller's database transaction, together with
 * whatever justified it (a verified payment, a claim), so the intent exists if and only if its
 * cause was recorded. The idempotency key is unique: recording the same intent twice fails.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { insertOutbound } from '../../../db/repositories/outbound-transactions.repository.js';

export async function recordOutboundIntent(
  trx: Kysely<Database> | Transaction<Database>,
  intent: { idempotencyKey: string; purpose: string; params: unknown },
): Promise<string> {
  const id = randomUUID();
  await insertOutbound(trx, {
    id, idempotencyKey: intent.idempotencyKey, purpose: intent.purpose,
    params: JSON.stringify(intent.params), now: new Date().toISOString(),
  });
  return id;
}

/** Job ids may not contain ':'; the attempt suffix lets the resume scan re-enqueue a finished job id. */
export function outboundJobId(id: string, suffix = 'first'): string {
  return `outbound-${id}-${suffix}`;
}
