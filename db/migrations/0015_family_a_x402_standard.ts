/**
 * FROZEN once shipped. Standard x402 v2 for Family A (docs/x402-standard.md).
 *
 * `family_a_quotes.account_fee_raw`: the USDC a standard buy adds when the platform must open the
 * buyer's outcome-token account (0 otherwise; the documented flavour never charges it).
 *
 * `family_a_x402_payments`: one row per partially signed payment the platform co-signed, written
 * BEFORE it is sent. The fee payer's signature (the transaction id) is the key, so a replayed
 * PAYMENT-SIGNATURE (signed again: Ed25519 is deterministic) finds its row and gets the original
 * answer. `state`: sent → honoured | refused (landed, but the trade was refused and its money
 * accounted for) | failed (landed with an error: only the fee was spent) | expired (never landed
 * before its blockhash expired) | rejected (the cluster refused it at submission).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('family_a_quotes')
    .addColumn('account_fee_raw', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('family_a_x402_payments')
    .addColumn('signature', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('quote_id', 'text', (c) => c.notNull())
    .addColumn('market_id', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('side', 'text', (c) => c.notNull())
    .addColumn('payer', 'text', (c) => c.notNull())
    .addColumn('pay_to', 'text', (c) => c.notNull())
    .addColumn('amount_raw', 'bigint', (c) => c.notNull())
    .addColumn('account_fee_raw', 'bigint', (c) => c.notNull())
    .addColumn('quote_issued_at', 'text', (c) => c.notNull())
    .addColumn('transaction', 'text', (c) => c.notNull())
    .addColumn('blockhash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('answer', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('family_a_x402_payments_state_idx').on('family_a_x402_payments').columns(['state', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('family_a_x402_payments').ifExists().execute();
  await db.schema.alterTable('family_a_quotes').dropColumn('account_fee_raw').execute();
}
