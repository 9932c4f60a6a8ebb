/**
 * Recording an outbound intent: done inside the caller's database transaction, together with
 * whatever justified it (a verified payment, a claim), so the intent exists if and only if its
 * cause was recorded. The idempotency key is unique: recording the same intent twice fails. A
 * caller that builds the bytes itself may store them with the intent (`built`): the sender's
 * job then only follows them (re-checks, re-sends, rebuilds once they expired).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { isUniqueViolation } from '../../../db/errors.js';
import {
  findOutboundByKey,
  insertOutbounds,
  type BuiltOutbound,
  type NewOutbound,
} from '../../../db/repositories/outbound-transactions.repository.js';

type Intent = { idempotencyKey: string; purpose: string; params: unknown; id?: string; built?: BuiltOutbound };

export async function recordOutboundIntent(trx: Kysely<Database> | Transaction<Database>, intent: Intent): Promise<string> {
  return (await recordOutboundIntents(trx, [intent]))[0]!;
}

/** Several intents in one statement (the keeper records a group's batches together); their ids, in order. */
export async function recordOutboundIntents(trx: Kysely<Database> | Transaction<Database>, intents: readonly Intent[]): Promise<string[]> {
  const rows = outboundIntentRows(intents);
  await insertOutbounds(trx, rows);
  return rows.map((r) => r.id);
}

/** The rows `recordOutboundIntents` inserts, for a caller that inserts them within a statement of its own (the keeper's group record). */
export function outboundIntentRows(intents: readonly Intent[]): NewOutbound[] {
  const now = new Date().toISOString();
  // A caller may choose the id, to point its own row at the intent in the same transaction.
  return intents.map((intent) => ({
    id: intent.id ?? randomUUID(),
    idempotencyKey: intent.idempotencyKey,
    purpose: intent.purpose,
    params: JSON.stringify(intent.params),
    now,
    built: intent.built,
  }));
}

/**
 * Records the intent unless one with its idempotency key exists (outside a caller's transaction:
 * standing intents such as "create the platform accounts" or "sweep this amount"). Safe under
 * races: the loser of a concurrent insert finds the winner's row.
 */
export async function recordOrFindOutboundIntent(
  db: Kysely<Database>,
  intent: { idempotencyKey: string; purpose: string; params: unknown },
): Promise<{ id: string; status: string; created: boolean }> {
  const existing = await findOutboundByKey(db, intent.idempotencyKey);
  if (existing) return { id: existing.id, status: existing.status, created: false };
  try {
    return { id: await recordOutboundIntent(db, intent), status: 'pending', created: true };
  } catch (error) {
    const winner = isUniqueViolation(error) ? await findOutboundByKey(db, intent.idempotencyKey) : undefined;
    if (!winner) throw error;
    return { id: winner.id, status: winner.status, created: false };
  }
}

/** Job ids may not contain ':'; the attempt suffix lets the resume scan re-enqueue a finished job id. */
export function outboundJobId(id: string, suffix = 'first'): string {
  return `outbound-${id}-${suffix}`;
}
