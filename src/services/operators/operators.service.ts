/**
 * Named operators: created and revoked from the command line (scripts/operator.ts), each with a
 * role and a secret shown once and stored as a hash. The admin token (ADMIN_TOKEN or
 * DATA_DIR/admin-token) keeps working as the operator `admin` with role `admin`.
 *
 * Roles, each including the one before: `viewer` reads every console page and admin GET route;
 * `operator` also pauses, resumes, cancels resting orders, re-drives fills, retries outbound
 * transactions and uses the job dashboard's write actions; `admin` also creates and resolves
 * markets and manages API keys.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  findOperator,
  insertOperator,
  listOperators,
  revokeOperator,
  revokeSessionsOf,
} from '../../../db/repositories/operators.repository.js';
import type { Database, OperatorRole } from '../../../db/schema.js';
import { DomainError } from '../../domain/errors.js';
import { hashSecret, newSecret, verifySecret } from './secret-hash.js';

export type { OperatorRole };

export const ROLES: readonly OperatorRole[] = ['viewer', 'operator', 'admin'];
export const ADMIN_OPERATOR = 'admin';

export function roleAllows(has: OperatorRole, needs: OperatorRole): boolean {
  return ROLES.indexOf(has) >= ROLES.indexOf(needs);
}

export function isRole(value: unknown): value is OperatorRole {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export interface Operator {
  name: string;
  role: OperatorRole;
}

const NAME = /^[a-z0-9][a-z0-9._-]{0,39}$/;

export async function addOperator(db: Kysely<Database>, name: string, role: OperatorRole): Promise<{ secret: string }> {
  if (!NAME.test(name) || name === ADMIN_OPERATOR)
    throw new DomainError('invalid', 'VALIDATION_ERROR', `operator names are 1–40 of a-z 0-9 . _ - (and not "${ADMIN_OPERATOR}")`);
  if (await findOperator(db, name))
    throw new DomainError('conflict', 'OPERATOR_EXISTS', `operator ${name} exists (revoked names are not reused)`);
  const secret = newSecret();
  await insertOperator(db, { name, role, secret_hash: await hashSecret(secret), created_at: new Date().toISOString(), revoked_at: null });
  return { secret };
}

/** Revokes an operator and every session of theirs; the next request of either is refused. */
export async function revokeOperatorByName(db: Kysely<Database>, name: string): Promise<{ sessions: number }> {
  const at = new Date().toISOString();
  if (!(await revokeOperator(db, name, at))) throw new DomainError('not_found', 'OPERATOR_NOT_FOUND', `no live operator ${name}`);
  return { sessions: await revokeSessionsOf(db, name, at) };
}

export async function operatorList(db: Kysely<Database>) {
  return (await listOperators(db)).map((o) => ({ name: o.name, role: o.role, createdAt: o.created_at, revokedAt: o.revoked_at }));
}

const sha = (text: string) => createHash('sha256').update(text).digest();

/**
 * Checks a name and secret. The admin token logs in as `admin`. A verified secret is remembered
 * (by its SHA-256, against the stored hash) so that an API client sending it on every request
 * costs one scrypt, not one per request; the operator row is read every time, so a revocation
 * takes effect on the next request.
 */
export class OperatorDirectory {
  private readonly verified = new Map<string, string>();

  /** Without a database only the admin token is known (an API facade built for a test or a bench). */
  constructor(
    private readonly db: Kysely<Database> | undefined,
    private readonly adminToken: string,
  ) {}

  isAdminToken(secret: string): boolean {
    const a = sha(secret);
    return timingSafeEqual(a, sha(this.adminToken));
  }

  async authenticate(name: string, secret: string): Promise<Operator | undefined> {
    if (name === ADMIN_OPERATOR) return this.isAdminToken(secret) ? { name, role: 'admin' } : undefined;
    const row = this.db ? await findOperator(this.db, name) : undefined;
    if (!row || row.revoked_at !== null || !isRole(row.role)) return undefined;
    const key = sha(`${name}\u0000${secret}`).toString('base64');
    if (this.verified.get(key) !== row.secret_hash) {
      if (!(await verifySecret(secret, row.secret_hash))) return undefined;
      if (this.verified.size > 1_000) this.verified.clear();
      this.verified.set(key, row.secret_hash);
    }
    return { name, role: row.role };
  }

  /** The live operator by name (sessions check it on every request). */
  async live(name: string): Promise<Operator | undefined> {
    if (name === ADMIN_OPERATOR) return { name, role: 'admin' };
    const row = this.db ? await findOperator(this.db, name) : undefined;
    return row && row.revoked_at === null && isRole(row.role) ? { name, role: row.role } : undefined;
  }
}
