/**
 * Family A API keys. Enforcement is an explicit setting (`FAMILY_A_REQUIRE_API_KEY`, off by
 * default as the spec says "no API key is required"): creating a key never closes Family A by
 * itself. When enforcement is on, every Family A request needs a valid `X-API-Key` (401
 * otherwise). When it is off, a valid key sent anyway still makes rate limits count per key; an
 * absent key is fine and an invalid one is 401 (a client that sends a key wants it checked).
 * Keys are random 32-byte strings shown once; only their sha256 is stored.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { findActiveKeyByHash, insertApiKey, listApiKeys, revokeApiKey } from '../../../db/repositories/api-keys.repository.js';
import type { Database } from '../../../db/schema.js';
import { DomainError } from '../../domain/errors.js';

const hash = (key: string) => createHash('sha256').update(key).digest('hex');

export class ApiKeyService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly requireKey = false,
  ) {}

  /** Whether every Family A request must carry a key (else a request without one is let through). */
  get required(): boolean {
    return this.requireKey;
  }

  async create(name: string) {
    const key = `pmx_${randomBytes(32).toString('base64url')}`;
    const id = randomUUID();
    const now = new Date().toISOString();
    await insertApiKey(this.db, { id, name, keyHash: hash(key), keyPrefix: key.slice(0, 8), now });
    return { id, name, key, keyPrefix: key.slice(0, 8), createdAt: now };
  }

  async revoke(id: string) {
    if (!(await revokeApiKey(this.db, id, new Date().toISOString())))
      throw new DomainError('not_found', 'NOT_FOUND', `No active API key ${id}`);
    return { id, revoked: true };
  }

  async list() {
    return (await listApiKeys(this.db)).map((k) => ({
      id: k.id,
      name: k.name,
      keyPrefix: k.key_prefix,
      createdAt: k.created_at,
      revokedAt: k.revoked_at,
    }));
  }

  /** The key's id when one is sent and valid; null when none is sent and keys are not required. */
  async authenticate(key: string | undefined): Promise<string | null> {
    if (!key) {
      if (this.requireKey) throw new DomainError('unauthorized', 'UNAUTHORIZED', 'X-API-Key header required');
      return null;
    }
    const row = await findActiveKeyByHash(this.db, hash(key));
    if (!row) throw new DomainError('unauthorized', 'UNAUTHORIZED', 'Invalid or revoked X-API-Key');
    return row.id;
  }
}
