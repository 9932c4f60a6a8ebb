/**
 * Console sessions: a random 32-byte id (never derived from a secret) in an HttpOnly cookie,
 * stored as its SHA-256 in the database so that every API node knows it; a CSRF token per session
 * for every state-changing form; an idle deadline (OPERATOR_SESSION_IDLE_MIN) and an absolute one
 * (OPERATOR_SESSION_MAX_HOURS). Logout revokes the session, revoking the operator revokes all of
 * theirs; each takes effect on the next request.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { findSession, insertSession, pruneSessions, revokeSession, touchSession } from '../../../db/repositories/operators.repository.js';
import type { Database } from '../../../db/schema.js';
import { DomainError } from '../../domain/errors.js';
import type { Operator, OperatorDirectory } from './operators.service.js';

export interface SessionSettings {
  idleMs: number;
  maxMs: number;
}

export interface Session extends Operator {
  csrf: string;
}

/** last_seen_at is written at most this often (not on every request), and always well within the idle timeout. */
const TOUCH_EVERY_MS = 30_000;

const hashOf = (id: string) => createHash('sha256').update(id).digest('base64url');

export class SessionStore {
  private lastPrune = 0;

  constructor(
    private readonly db: Kysely<Database> | undefined,
    private readonly operators: OperatorDirectory,
    private readonly settings: SessionSettings,
  ) {}

  async create(operator: Operator, now = Date.now()): Promise<{ id: string; csrf: string }> {
    if (!this.db)
      throw new DomainError('unavailable', 'NO_OPERATOR_DATABASE', 'This API facade keeps no sessions; use Authorization: Bearer');
    const id = randomBytes(32).toString('base64url');
    const csrf = randomBytes(24).toString('base64url');
    const at = new Date(now).toISOString();
    await insertSession(this.db, {
      id_hash: hashOf(id),
      operator: operator.name,
      role: operator.role,
      csrf,
      created_at: at,
      last_seen_at: at,
      expires_at: new Date(now + this.settings.maxMs).toISOString(),
      revoked_at: null,
    });
    if (now - this.lastPrune > 3_600_000) {
      this.lastPrune = now;
      await pruneSessions(this.db, new Date(now - 86_400_000).toISOString());
    }
    return { id, csrf };
  }

  /** The session's operator (their current role), or undefined when it ended, idled out, or they were revoked. */
  async resolve(id: string, now = Date.now()): Promise<Session | undefined> {
    if (!this.db || !/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
    const row = await findSession(this.db, hashOf(id));
    if (!row || row.revoked_at !== null) return undefined;
    if (Date.parse(row.expires_at) <= now || Date.parse(row.last_seen_at) + this.settings.idleMs <= now) return undefined;
    const operator = await this.operators.live(row.operator);
    if (!operator) return undefined;
    if (now - Date.parse(row.last_seen_at) > Math.min(TOUCH_EVERY_MS, this.settings.idleMs / 4))
      await touchSession(this.db, row.id_hash, new Date(now).toISOString());
    return { ...operator, csrf: row.csrf };
  }

  async end(id: string): Promise<void> {
    if (this.db) await revokeSession(this.db, hashOf(id), new Date().toISOString());
  }
}
