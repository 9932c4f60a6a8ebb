/** Named operators and their console sessions (migration 0022); one query per function. */
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, OperatorSessionsTable, OperatorsTable } from '../schema.js';

export type OperatorRow = Selectable<OperatorsTable>;
export type SessionRow = Selectable<OperatorSessionsTable>;

export async function insertOperator(db: Kysely<Database>, row: Insertable<OperatorsTable>): Promise<void> {
  await db.insertInto('operators').values(row).execute();
}

export async function findOperator(db: Kysely<Database>, name: string): Promise<OperatorRow | undefined> {
  return db.selectFrom('operators').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function listOperators(db: Kysely<Database>): Promise<OperatorRow[]> {
  return db.selectFrom('operators').selectAll().orderBy('name').execute();
}

/** Revokes a live operator; false when there is none by that name. */
export async function revokeOperator(db: Kysely<Database>, name: string, at: string): Promise<boolean> {
  const r = await db
    .updateTable('operators')
    .set({ revoked_at: at })
    .where('name', '=', name)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function insertSession(db: Kysely<Database>, row: Insertable<OperatorSessionsTable>): Promise<void> {
  await db.insertInto('operator_sessions').values(row).execute();
}

export async function findSession(db: Kysely<Database>, idHash: string): Promise<SessionRow | undefined> {
  return db.selectFrom('operator_sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
}

export async function touchSession(db: Kysely<Database>, idHash: string, at: string): Promise<void> {
  await db.updateTable('operator_sessions').set({ last_seen_at: at }).where('id_hash', '=', idHash).execute();
}

export async function revokeSession(db: Kysely<Database>, idHash: string, at: string): Promise<void> {
  await db.updateTable('operator_sessions').set({ revoked_at: at }).where('id_hash', '=', idHash).where('revoked_at', 'is', null).execute();
}

export async function revokeSessionsOf(db: Kysely<Database>, operator: string, at: string): Promise<number> {
  const r = await db
    .updateTable('operator_sessions')
    .set({ revoked_at: at })
    .where('operator', '=', operator)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Deletes sessions that ended before `before` (expired or revoked): they can never log anyone in again. */
export async function pruneSessions(db: Kysely<Database>, before: string): Promise<number> {
  const r = await db
    .deleteFrom('operator_sessions')
    .where((eb) => eb.or([eb('expires_at', '<', before), eb('revoked_at', '<', before)]))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
