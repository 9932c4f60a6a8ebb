/**
 * Family A market creations awaiting their fee (x402 creation, steps 1 and 2): the pending
 * market of a creator, the sweep of expired windows, and the renewal of a repeated request.
 * Rows are the same `markets` ⋈ `family_a_markets` shape as family-a-markets.repository.ts.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../schema.js';
import { MARKET_COLUMNS } from './family-a-markets.repository.js';

type Db = Kysely<Database> | Transaction<Database>;

/** The newest market awaiting its creation fee from `creator` under `name` (x402 creation step 2). */
export async function findPendingMarket(db: Db, creator: string, name: string) {
  return db
    .selectFrom('markets as m')
    .leftJoin('family_a_markets as a', 'a.market_id', 'm.id')
    .select(MARKET_COLUMNS)
    .where('m.creator', '=', creator)
    .where('m.name', '=', name)
    .where('m.status', '=', 'pending')
    .orderBy('m.created_at', 'desc')
    .executeTakeFirst();
}

/** Every creation of `creator` still awaiting its fee. */
export async function listPendingCreations(db: Db, creator: string) {
  return db
    .selectFrom('markets as m')
    .innerJoin('family_a_markets as a', 'a.market_id', 'm.id')
    .select(MARKET_COLUMNS)
    .where('m.creator', '=', creator)
    .where('m.status', '=', 'pending')
    .execute();
}

/** Pending creations whose payment deadline is before `before` (the sweep expires them). */
export async function listExpiredPendingCreations(db: Db, before: string, limit: number) {
  return db
    .selectFrom('markets as m')
    .innerJoin('family_a_markets as a', 'a.market_id', 'm.id')
    .select(['m.id', 'm.slug', 'a.payment_deadline'])
    .where('m.status', '=', 'pending')
    .where('a.payment_deadline', '<', before)
    .limit(limit)
    .execute();
}

/**
 * Removing an unpaid creation (after `setMarketStatus(pending → expired)` won, in the same
 * database transaction): first its terms, then the market row, which releases its slug.
 */
export async function deleteTermsOfExpiredMarket(db: Db, id: string): Promise<void> {
  await db
    .deleteFrom('family_a_markets')
    .where('market_id', '=', id)
    .where((eb) => eb.exists(eb.selectFrom('markets').select('id').where('id', '=', id).where('status', '=', 'expired')))
    .execute();
}

export async function deleteExpiredMarket(db: Db, id: string): Promise<boolean> {
  const res = await db.deleteFrom('markets').where('id', '=', id).where('status', '=', 'expired').executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

/** A repeated identical creation request reopens the window of its pending market. */
export async function renewPaymentDeadline(db: Db, id: string, deadline: string): Promise<boolean> {
  const res = await db
    .updateTable('family_a_markets')
    .set({ payment_deadline: deadline })
    .where('market_id', '=', id)
    .where((eb) => eb.exists(eb.selectFrom('markets').select('id').where('id', '=', id).where('status', '=', 'pending')))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
