/** Family A quotes, honoured payments and claims (one query per function; db or trx first). */
import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Database, FamilyAClaimsTable, FamilyAPaymentsTable, FamilyAQuotesTable } from '../schema.js';

type Db = Kysely<Database> | Transaction<Database>;
export type QuoteRow = Selectable<FamilyAQuotesTable>;
export type PaymentRow = Selectable<FamilyAPaymentsTable>;
export type ClaimRow = Selectable<FamilyAClaimsTable>;

export async function insertQuote(db: Db, row: Insertable<FamilyAQuotesTable>): Promise<void> {
  await db.insertInto('family_a_quotes').values(row).execute();
}

export async function findQuote(
  db: Db,
  key: { marketId: string; wallet: string; side: 'YES' | 'NO'; kind: 'buy' | 'sell'; issuedAt: string },
): Promise<QuoteRow | undefined> {
  return db
    .selectFrom('family_a_quotes')
    .selectAll()
    .where('market_id', '=', key.marketId)
    .where('wallet', '=', key.wallet)
    .where('side', '=', key.side)
    .where('kind', '=', key.kind)
    .where('issued_at', '=', key.issuedAt)
    .executeTakeFirst();
}

export async function findQuoteById(db: Db, id: string): Promise<QuoteRow | undefined> {
  return db.selectFrom('family_a_quotes').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Deletes up to `limit` quotes that expired before `before` (one bounded statement, so a large
 * backlog never holds the writer for long). Returns how many went.
 */
export async function deleteQuotesExpiredBefore(db: Db, before: string, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('family_a_quotes')
    .where('id', 'in', (eb) => eb.selectFrom('family_a_quotes').select('id').where('expires_at', '<', before).limit(limit))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function insertPayment(db: Db, row: Insertable<FamilyAPaymentsTable>): Promise<void> {
  await db.insertInto('family_a_payments').values(row).execute();
}

export async function findPaymentBySignature(db: Db, signature: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('family_a_payments').selectAll().where('signature', '=', signature).executeTakeFirst();
}

export async function insertClaim(db: Db, row: Insertable<FamilyAClaimsTable>): Promise<void> {
  await db.insertInto('family_a_claims').values(row).execute();
}

export async function findClaim(db: Db, marketId: string, wallet: string): Promise<ClaimRow | undefined> {
  return db.selectFrom('family_a_claims').selectAll().where('market_id', '=', marketId).where('wallet', '=', wallet).executeTakeFirst();
}

/** What a payment led to: the payment row, its market's slug and its outbound transaction (one row by the unique signature). */
export async function findPaymentOutcome(db: Db, signature: string) {
  return db
    .selectFrom('family_a_payments as p')
    .innerJoin('markets as m', 'm.id', 'p.market_id')
    .leftJoin('outbound_transactions as o', 'o.id', 'p.outbound_id')
    .select([
      'p.signature',
      'p.kind',
      'p.wallet',
      'p.side',
      'p.paid_raw',
      'p.deliver_raw',
      'p.created_at',
      'm.slug',
      'o.status as outbound_status',
      'o.signature as outbound_signature',
      'o.last_error as outbound_error',
      'o.updated_at as outbound_updated_at',
      'o.awaiting_funds_since as outbound_awaiting_funds_since',
    ])
    .where('p.signature', '=', signature)
    .executeTakeFirst();
}

/**
 * Quotes that could honour a transfer: of this wallet, market, side and kind, for exactly
 * `amountRaw`, issued between `issuedFrom` and `issuedTo` (the transfer's landing time minus the
 * quote lifetime, plus the one-second slack of block times).
 */
export async function listMatchingQuotes(
  db: Db,
  q: {
    marketId: string;
    wallet: string;
    side: 'YES' | 'NO';
    kind: 'buy' | 'sell';
    amountRaw: bigint;
    issuedFrom: string;
    issuedTo: string;
  },
): Promise<QuoteRow[]> {
  return db
    .selectFrom('family_a_quotes')
    .selectAll()
    .where('market_id', '=', q.marketId)
    .where('wallet', '=', q.wallet)
    .where('side', '=', q.side)
    .where('kind', '=', q.kind)
    .where('issued_at', '>=', q.issuedFrom)
    .where('issued_at', '<=', q.issuedTo)
    .where('amount_raw', '=', q.amountRaw)
    .execute();
}
