/**
 * The dead-man's switch per owner (migration 0023), one query per function. A heartbeat is
 * accepted only when newer than the owner's last accepted one (the upsert's condition), so two
 * racing API nodes cannot both accept a replay; a deadline is cleared only if it is still the one
 * the sweep found due, so a heartbeat that re-armed meanwhile keeps its own.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface Heartbeat {
  owner: string;
  signedAt: number;
  timeoutSec: number;
  /** Unix ms, null to disarm. */
  deadlineMs: number | null;
}

/** Records the heartbeat; false when the owner's last accepted one is as new or newer (a replay). */
export async function acceptHeartbeat(db: Db, hb: Heartbeat, now: string): Promise<boolean> {
  const row = {
    signed_at: hb.signedAt,
    timeout_sec: hb.timeoutSec,
    deadline_ms: hb.deadlineMs,
    updated_at: now,
  };
  const result = await db
    .insertInto('clob_heartbeats')
    .values({ owner: hb.owner, ...row })
    .onConflict((oc) => oc.column('owner').doUpdateSet(row).where('clob_heartbeats.signed_at', '<', BigInt(hb.signedAt)))
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** Owners whose deadline passed, the oldest first, at most `limit` (a bounded sweep). */
export async function dueHeartbeats(db: Db, nowMs: number, limit: number): Promise<Array<{ owner: string; deadlineMs: bigint }>> {
  const rows = await db
    .selectFrom('clob_heartbeats')
    .select(['owner', 'deadline_ms'])
    .where('deadline_ms', '<=', BigInt(nowMs))
    .orderBy('deadline_ms')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ owner: r.owner, deadlineMs: BigInt(r.deadline_ms!) }));
}

/** Clears a deadline that fired, if it is still the one found due. */
export async function clearFiredDeadline(db: Db, owner: string, deadlineMs: bigint, now: string): Promise<void> {
  await db
    .updateTable('clob_heartbeats')
    .set({ deadline_ms: null, updated_at: now })
    .where('owner', '=', owner)
    .where('deadline_ms', '=', deadlineMs)
    .execute();
}
