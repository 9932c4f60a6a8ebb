/**
 * Used cancel-all proofs (one query per function). A proof is claimed before its cancels run and
 * released if they could not run, so a client's retry of a failed cancel-all still works.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface CancelAllProof {
  owner: string;
  marketRef: string;
  signedAt: number;
}

/** Records the proof's use; false when it was used before (a replay). */
export async function claimCancelAllProof(db: Db, p: CancelAllProof, now: string): Promise<boolean> {
  const result = await db
    .insertInto('clob_cancel_all_uses')
    .values({ owner: p.owner, market_ref: p.marketRef, signed_at: p.signedAt, used_at: now })
    .onConflict((oc) => oc.columns(['owner', 'market_ref', 'signed_at']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export async function releaseCancelAllProof(db: Db, p: CancelAllProof): Promise<void> {
  await db
    .deleteFrom('clob_cancel_all_uses')
    .where('owner', '=', p.owner)
    .where('market_ref', '=', p.marketRef)
    .where('signed_at', '=', BigInt(p.signedAt))
    .execute();
}

/** Forgets proofs signed before `beforeSec` (they can never be fresh again). */
export async function pruneCancelAllProofs(db: Db, beforeSec: number): Promise<void> {
  await db.deleteFrom('clob_cancel_all_uses').where('signed_at', '<', BigInt(beforeSec)).execute();
}
