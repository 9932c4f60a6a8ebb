/** Everything that decides who an operator is, built once per process from the database and the admin token. */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { LoginThrottle } from './login-throttle.js';
import { OperatorDirectory } from './operators.service.js';
import { SessionStore, type SessionSettings } from './sessions.service.js';

export function createOperatorAccess(db: Kysely<Database> | undefined, adminToken: string, settings: SessionSettings) {
  const directory = new OperatorDirectory(db, adminToken);
  return { directory, sessions: new SessionStore(db, directory, settings), throttle: new LoginThrottle() };
}

/** The defaults of OPERATOR_SESSION_IDLE_MIN (30) and OPERATOR_SESSION_MAX_HOURS (12). */
export const DEFAULT_SESSION_SETTINGS: SessionSettings = { idleMs: 30 * 60_000, maxMs: 12 * 3_600_000 };
