/** Persisted outbound transactions (one query per function; db or trx first). */
import type { Kysely, Selectable, Transaction } from 'kysely';
import { num } from '../codec.js';
import type { Database, OutboundTransactionsTable } from '../schema.js';

type Db = Kysely<Database> | Transaction<Database>;
export type OutboundRow = Selectable<OutboundTransactionsTable>;

/** Bytes built with the intent, before its first send: the row starts `sent`, its first attempt counted. */
export interface BuiltOutbound {
  signature: string;
  rawTx: string;
  blockhash: string;
  lastValidBlockHeight: number;
}

export interface NewOutbound {
  id: string;
  idempotencyKey: string;
  purpose: string;
  params: string;
  now: string;
  built?: BuiltOutbound;
}

export async function insertOutbound(db: Db, row: NewOutbound): Promise<void> {
  await insertOutbounds(db, [row]);
}

/** Several rows in one statement (a keeper's group: all built, so all rows have the same columns). */
export async function insertOutbounds(db: Db, rows: readonly NewOutbound[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('outbound_transactions').values(rows.map(outboundValues)).execute();
}

/** A row as `insertOutbounds` writes it (also the keeper's group record, clob-settle-group.repository.ts). */
export function outboundValues(row: NewOutbound) {
  const b = row.built;
  return {
    id: row.id,
    idempotency_key: row.idempotencyKey,
    purpose: row.purpose,
    params: row.params,
    created_at: row.now,
    updated_at: row.now,
    ...(b
      ? {
          status: 'sent' as const,
          attempts: 1,
          signature: b.signature,
          raw_tx: b.rawTx,
          blockhash: b.blockhash,
          last_valid_block_height: BigInt(b.lastValidBlockHeight),
        }
      : { status: 'pending' as const, attempts: 0 }),
  };
}

/** Confirmed by their sender's own status check (the keeper's first sends, settle-group.ts). */
export async function markOutboundsConfirmed(db: Db, ids: string[], now: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('outbound_transactions')
    .set({ status: 'confirmed', last_error: null, updated_at: now })
    .where('id', 'in', ids)
    .where('status', '!=', 'confirmed')
    .execute();
}

// SQLite hands every integer back as bigint; `attempts` is declared a number.
const normalize = (row: OutboundRow | undefined): OutboundRow | undefined =>
  row ? { ...row, attempts: num(row.attempts), funding_checks: num(row.funding_checks) } : row;

export async function findOutbound(db: Db, id: string): Promise<OutboundRow | undefined> {
  return normalize(await db.selectFrom('outbound_transactions').selectAll().where('id', '=', id).executeTakeFirst());
}

export async function findOutboundByKey(db: Db, key: string): Promise<OutboundRow | undefined> {
  return normalize(await db.selectFrom('outbound_transactions').selectAll().where('idempotency_key', '=', key).executeTakeFirst());
}

/**
 * Stores freshly built bytes, but only if nobody else did since `expectedSignature` was read:
 * two workers can never both rebuild (and so both send) one intent. Returns whether it won.
 */
export async function storeBuilt(
  db: Db,
  id: string,
  expectedSignature: string | null,
  built: { signature: string; rawTx: string; blockhash: string; lastValidBlockHeight: number; now: string },
): Promise<boolean> {
  let q = db
    .updateTable('outbound_transactions')
    .set({
      // 'sent' from here on: the bytes are about to go (a send the node refuses puts the status back).
      status: 'sent' as const,
      signature: built.signature,
      raw_tx: built.rawTx,
      blockhash: built.blockhash,
      last_valid_block_height: BigInt(built.lastValidBlockHeight),
      updated_at: built.now,
      // Built means funded: any wait for funds is over.
      awaiting_funds_since: null,
      shortfall: null,
      next_attempt_at: null,
    })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'sent']);
  q = expectedSignature === null ? q.where('signature', 'is', null) : q.where('signature', '=', expectedSignature);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function markOutbound(
  db: Db,
  id: string,
  status: OutboundRow['status'],
  fields: { lastError?: string | null; now: string; bumpAttempts?: boolean },
): Promise<void> {
  await db
    .updateTable('outbound_transactions')
    .set((eb) => ({
      status,
      updated_at: fields.now,
      ...(fields.lastError !== undefined ? { last_error: fields.lastError } : {}),
      ...(fields.bumpAttempts ? { attempts: eb('attempts', '+', 1) } : {}),
    }))
    .where('id', '=', id)
    // Confirmed is final; failed is final too except for a confirmation (bytes that landed after
    // all): an attempt still running when its intent was failed (a paused market's settle batch)
    // must not put it back to `sent`. The operator's re-drive has its own query.
    .where('status', 'not in', status === 'confirmed' ? ['confirmed'] : ['confirmed', 'failed'])
    .execute();
}

/**
 * Unfinished intents not touched since `before` (the resume scan), except those waiting for funds
 * whose next funding check is after `now`.
 */
export async function listUnfinishedOutbound(
  db: Db,
  before: string,
  limit: number,
  now = new Date().toISOString(),
): Promise<Pick<OutboundRow, 'id' | 'attempts' | 'funding_checks'>[]> {
  return db
    .selectFrom('outbound_transactions')
    .select(['id', 'attempts', 'funding_checks'])
    .where('status', 'in', ['pending', 'sent'])
    .where('updated_at', '<', before)
    .where((eb) => eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', now)]))
    .orderBy('updated_at')
    .limit(limit)
    .execute();
}

/** The message of a failed attempt, kept on the row (the status is left as it is). */
export async function noteOutboundError(db: Db, id: string, message: string, now: string): Promise<void> {
  await db
    .updateTable('outbound_transactions')
    .set({ last_error: message, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'sent'])
    .execute();
}

/**
 * A funding check came up short: keep the reason and the shortfall, start (or continue) the wait,
 * schedule the next check, and give back the attempt that `process` counted on entry (a funding
 * check is not an attempt).
 */
export async function markAwaitingFunds(
  db: Db,
  id: string,
  wait: { reason: string; shortfall: string; nextAttemptAt: string; now: string },
): Promise<void> {
  await db
    .updateTable('outbound_transactions')
    .set((eb) => ({
      last_error: wait.reason,
      shortfall: wait.shortfall,
      next_attempt_at: wait.nextAttemptAt,
      awaiting_funds_since: eb.fn.coalesce('awaiting_funds_since', eb.val(wait.now)),
      funding_checks: eb('funding_checks', '+', 1),
      attempts: eb('attempts', '-', 1),
      updated_at: wait.now,
    }))
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'sent'])
    .execute();
}

/** Operator: check an intent waiting for funds at the next occasion instead of after its backoff. */
export async function expediteAwaitingFunds(db: Db, id: string, now: string): Promise<boolean> {
  const res = await db
    .updateTable('outbound_transactions')
    .set({ next_attempt_at: null, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'sent'])
    .where('awaiting_funds_since', 'is not', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Intents waiting for funds, oldest wait first (operators, dashboard). */
export async function listAwaitingFunds(db: Db, limit: number) {
  return db
    .selectFrom('outbound_transactions')
    .select([
      'id',
      'idempotency_key',
      'purpose',
      'status',
      'signature',
      'attempts',
      'last_error',
      'created_at',
      'updated_at',
      'awaiting_funds_since',
      'shortfall',
      'next_attempt_at',
      'funding_checks',
    ])
    .where('status', 'in', ['pending', 'sent'])
    .where('awaiting_funds_since', 'is not', null)
    .orderBy('awaiting_funds_since')
    .limit(limit)
    .execute();
}

/** Per purpose: how many intents wait for funds and since when the oldest waits (the metric). */
export async function summarizeAwaitingFunds(db: Db) {
  return db
    .selectFrom('outbound_transactions')
    .select((eb) => ['purpose', eb.fn.countAll<number | bigint | string>().as('n'), eb.fn.min('awaiting_funds_since').as('oldest')])
    .where('status', 'in', ['pending', 'sent'])
    .where('awaiting_funds_since', 'is not', null)
    .groupBy('purpose')
    .execute();
}

/** Operator re-drive of a given-up intent: back to pending with a fresh attempt budget. */
export async function resetFailedOutbound(db: Db, id: string, now: string): Promise<boolean> {
  const res = await db
    .updateTable('outbound_transactions')
    .set({ status: 'pending', attempts: 0, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'failed')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function listOutboundByStatus(db: Db, status: OutboundRow['status'], limit: number) {
  return db
    .selectFrom('outbound_transactions')
    .select([
      'id',
      'idempotency_key',
      'purpose',
      'status',
      'signature',
      'attempts',
      'last_error',
      'created_at',
      'updated_at',
      'awaiting_funds_since',
      'shortfall',
    ])
    .where('status', '=', status)
    .orderBy('updated_at', 'desc')
    .limit(limit)
    .execute();
}
