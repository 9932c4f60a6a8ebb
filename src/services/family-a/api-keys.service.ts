/**
 * Family A API keys. With no active key configured Family A is open; once an operator creates
 * one, every Family A request needs a valid `X-API-Key` (401 otherwise) and rate limits count per
 * key. Keys are random 32-byte strings shown once; only their sha256 is stored. Whether any key
 * exists is cached for 2 s so open deployments pay no query per request.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { countActiveKeys, findActiveKeyByHash, insertApiKey, listApiKeys, revokeApiKey } from '../../../db/repositories/api-keys.repository.js';
import type { Database } from '../../../db/schema.js';
import { DomainError } from '../../domain/errors.js';

const hash = (key: string) => createHash('sha256').update(key).digest('hex');

export class ApiKeyService {
  private anyKeys: { value: boolean; at: number } | null = null;

  constructor(private readonly db: Kysely<Database>, private readonly cacheMs = 2_000) {}

  async create(name: string) {
    const key = `pmx_${randomBytes(32).toString('base64url')}`;
    const id = randomUUID();
    const now = new Date().toISOString();
    await insertApiKey(this.db, { id, name, keyHash: hash(key), keyPrefix: key.slice(0, 8), now });
    this.anyKeys = null;
    return { id, name, key, keyPrefix: key.slice(0, 8), createdAt: now };
  }

  async revoke(id: string) {
    if (!(await revokeApiKey(this.db, id, new Date().toISOString()))) throw new DomainError('not_found', 'NOT_FOUND', `No active API key ${id}`);
    this.anyKeys = null;
    return { id, revoked: true };
  }

  async list() {
    return (await listApiKeys(this.db)).map((k) => ({ id: k.id, name: k.name, keyPrefix: k.key_prefix, createdAt: k.created_at, revokedAt: k.revoked_at }));
  }

  /** The key's id when keys are required and this one is valid; null when Family A is open. */
  async authenticate(key: string | undefined): Promise<string | null> {
    if (!(await this.required())) return null;
    if (!key) throw new DomainError('unauthorized', 'UNAUTHORIZED', 'X-API-Key header required');
    const row = await findActiveKeyByHash(this.db, hash(key));
    if (!row) throw new DomainError('unauthorized', 'UNAUTHORIZED', 'Invalid or revoked X-API-Key');
    return row.id;
  }

  private async required(): Promise<boolean> {
    if (this.anyKeys && Date.now() - this.anyKeys.at < this.cacheMs) return this.anyKeys.value;
    const value = (await countActiveKeys(this.db)) > 0;
    this.anyKeys = { value, at: Date.now() };
    return value;
  }
}
