/**
 * The operators' audit log: every state-changing admin request — create, pause, resume, resolve,
 * cancel, re-drive, retry, API keys, the job dashboard's retry, clean and pause — with its time,
 * action, target, parameters, result and caller. Recorded by the API (src/api/plugins/audit.plugin.ts)
 * before the action runs and completed when it answers; read by GET /v2/admin/audit and /admin/audit.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { completeAudit, insertAudit, listAudit, type AuditRow } from '../../db/repositories/operator-audit.repository.js';
import type { Database } from '../../db/schema.js';
import { DomainError } from '../domain/errors.js';

export interface AuditEntry {
  action: string;
  target: string;
  params: string;
  caller: string;
  address: string;
}

export interface AuditQuery {
  action?: string;
  target?: string;
  since?: string;
  until?: string;
  cursor?: string;
  limit: number;
}

export interface AuditLog {
  /** Records an action about to run; answers its id. */
  begin(entry: AuditEntry): Promise<string>;
  /** Completes it with the answer's status and `ok` or the error code. */
  end(id: string, status: number, result: string): Promise<void>;
  list(query: AuditQuery): Promise<{ items: AuditRow[]; nextCursor: string | null }>;
}

const cursorOf = (row: AuditRow) => Buffer.from(JSON.stringify([row.at, row.id])).toString('base64url');

function readCursor(cursor: string): { at: string; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof at === 'string' && typeof id === 'string') return { at, id };
  } catch {
    // answered below
  }
  throw new DomainError('invalid', 'VALIDATION_ERROR', 'cursor is not one this endpoint gave');
}

export function createAuditLog(db: Kysely<Database>): AuditLog {
  return {
    async begin(entry) {
      const id = randomUUID();
      await insertAudit(db, { id, at: new Date().toISOString(), result: 'pending', status: null, ...entry });
      return id;
    },
    async end(id, status, result) {
      await completeAudit(db, id, result, status);
    },
    async list(query) {
      const before = query.cursor ? readCursor(query.cursor) : undefined;
      const rows = await listAudit(db, { ...query, before }, query.limit + 1);
      // SQLite hands integers back as bigint (safe integers); the answer's status is a JSON number.
      const items = rows.slice(0, query.limit).map((r) => ({ ...r, status: r.status === null ? null : Number(r.status) }));
      return { items, nextCursor: rows.length > query.limit ? cursorOf(items.at(-1)!) : null };
    },
  };
}
