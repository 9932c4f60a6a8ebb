/** Standard x402 v2 payments the fee payer co-signed (migration 0015); one query per function. */
import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Database, FamilyAX402PaymentsTable, X402PaymentState } from '../schema.js';

type Db = Kysely<Database> | Transaction<Database>;
export type X402PaymentRow = Selectable<FamilyAX402PaymentsTable>;

/** Records a co-signed payment before it is sent; a second insert of one signature fails (unique). */
export async function insertX402Payment(db: Db, row: Insertable<FamilyAX402PaymentsTable>): Promise<void> {
  await db.insertInto('family_a_x402_payments').values(row).execute();
}

export async function findX402Payment(db: Db, signature: string): Promise<X402PaymentRow | undefined> {
  return db.selectFrom('family_a_x402_payments').selectAll().where('signature', '=', signature).executeTakeFirst();
}

/** Moves a payment out of `sent` once (compare-and-set); false when another process decided it first. */
export async function decideX402Payment(db: Db, signature: string, state: X402PaymentState, answer: string): Promise<boolean> {
  const result = await db
    .updateTable('family_a_x402_payments')
    .set({ state, answer, updated_at: new Date().toISOString() })
    .where('signature', '=', signature)
    .where('state', '=', 'sent')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Payments still `sent` that were recorded before `before`, oldest first: the resume job drives them. */
export async function listUndecidedX402Payments(db: Db, before: string, limit: number): Promise<X402PaymentRow[]> {
  return db
    .selectFrom('family_a_x402_payments')
    .selectAll()
    .where('state', '=', 'sent')
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}
