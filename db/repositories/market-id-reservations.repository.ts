/**
 * Market ids are reserved off chain so that concurrent creations get distinct ids: the next id
 * is max(on-chain counter, highest reservation) + 1, claimed by inserting it (primary key).
 */
import type { Kysely } from 'kysely';
import { big } from '../codec.js';
import type { Database } from '../schema.js';

export async function highestReservation(db: Kysely<Database>): Promise<bigint> {
  const row = await db
    .selectFrom('market_id_reservations')
    .select((eb) => eb.fn.max('market_id').as('max'))
    .executeTakeFirst();
  return row?.max === null || row?.max === undefined ? 0n : big(row.max as bigint);
}

/** Returns false when another request took the id first. */
export async function tryReserve(db: Kysely<Database>, marketId: bigint, creator: string): Promise<boolean> {
  const result = await db
    .insertInto('market_id_reservations')
    .values({ market_id: marketId, creator, reserved_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('market_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}
