/** Family A API keys, stored as sha256 hashes (one query per function; db or trx first). */
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { ApiKeysTable, Database } from '../schema.js';

type Db = Kysely<Database> | Transaction<Database>;
export type ApiKeyRow = Selectable<ApiKeysTable>;

export async function insertApiKey(
  db: Db,
  row: { id: string; name: string; keyHash: string; keyPrefix: string; now: string },
): Promise<void> {
  await db
    .insertInto('api_keys')
    .values({ id: row.id, name: row.name, key_hash: row.keyHash, key_prefix: row.keyPrefix, created_at: row.now })
    .execute();
}

export async function findActiveKeyByHash(db: Db, keyHash: string): Promise<Pick<ApiKeyRow, 'id'> | undefined> {
  return db.selectFrom('api_keys').select('id').where('key_hash', '=', keyHash).where('revoked_at', 'is', null).executeTakeFirst();
}

export async function countActiveKeys(db: Db): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number | bigint | string>().as('n'))
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listApiKeys(db: Db): Promise<Omit<ApiKeyRow, 'key_hash'>[]> {
  return db.selectFrom('api_keys').select(['id', 'name', 'key_prefix', 'created_at', 'revoked_at']).orderBy('created_at').execute();
}

export async function revokeApiKey(db: Db, id: string, now: string): Promise<boolean> {
  const res = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
