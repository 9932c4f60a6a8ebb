/** The operators' audit log (migration 0016); one query per function. */
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, OperatorAuditTable } from '../schema.js';

export type AuditRow = Selectable<OperatorAuditTable>;

export async function insertAudit(db: Kysely<Database>, row: Insertable<OperatorAuditTable>): Promise<void> {
  await db.insertInto('operator_audit').values(row).execute();
}

export async function completeAudit(db: Kysely<Database>, id: string, result: string, status: number): Promise<void> {
  await db.updateTable('operator_audit').set({ result, status }).where('id', '=', id).execute();
}

export interface AuditFilter {
  action?: string;
  /** Substring of the target (`id=3`). */
  target?: string;
  since?: string;
  until?: string;
  /** Rows strictly before this (at, id), newest first. */
  before?: { at: string; id: string };
}

export async function listAudit(db: Kysely<Database>, filter: AuditFilter, limit: number): Promise<AuditRow[]> {
  let query = db.selectFrom('operator_audit').selectAll();
  if (filter.action) query = query.where('action', '=', filter.action);
  if (filter.target) query = query.where('target', 'like', `%${filter.target.replace(/[%_\\]/g, '')}%`);
  if (filter.since) query = query.where('at', '>=', filter.since);
  if (filter.until) query = query.where('at', '<', filter.until);
  const before = filter.before;
  if (before) query = query.where((eb) => eb.or([eb('at', '<', before.at), eb.and([eb('at', '=', before.at), eb('id', '<', before.id)])]));
  return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}
