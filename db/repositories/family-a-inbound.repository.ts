/**
 * Family A's ledger of inbound transfers to platform wallets (migration 0004): one row per
 * credited account per transaction, UNIQUE (signature, transfer_index). One query per function;
 * db or trx first. State changes are compare-and-set on the current state, so that honouring and
 * refunding the same transfer can never both succeed.
 */
import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { Database, FamilyAInboundTransfersTable } from '../schema.js';

type Db = Kysely<Database> | Transaction<Database>;
export type InboundRow = Selectable<FamilyAInboundTransfersTable>;
export type InboundState = InboundRow['state'];

/** Records a transfer unless it is recorded already (the first record stands). */
export async function insertInboundIfAbsent(db: Db, row: Insertable<FamilyAInboundTransfersTable>): Promise<void> {
  await db
    .insertInto('family_a_inbound_transfers')
    .values(row)
    .onConflict((oc) => oc.columns(['signature', 'transfer_index']).doNothing())
    .execute();
}

/** Moves a transfer from one of `from` to a new state; false when it was not in one of them. */
export async function transitionInbound(
  db: Db,
  key: { signature: string; index: number },
  from: InboundState[],
  set: Updateable<FamilyAInboundTransfersTable> & { state: InboundState; updated_at: string },
): Promise<boolean> {
  const res = await db
    .updateTable('family_a_inbound_transfers')
    .set(set)
    .where('signature', '=', key.signature)
    .where('transfer_index', '=', key.index)
    .where('state', 'in', from)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function findInbound(db: Db, signature: string, index: number): Promise<InboundRow | undefined> {
  return db
    .selectFrom('family_a_inbound_transfers')
    .selectAll()
    .where('signature', '=', signature)
    .where('transfer_index', '=', index)
    .executeTakeFirst();
}

/** A transaction's transfers with their market's slug and their refund's outbound transaction. */
export async function listInboundOfTransaction(db: Db, signature: string) {
  return db
    .selectFrom('family_a_inbound_transfers as t')
    .leftJoin('markets as m', 'm.id', 't.market_id')
    .leftJoin('outbound_transactions as o', 'o.id', 't.outbound_id')
    .selectAll('t')
    .select([
      'm.slug',
      'm.yes_mint',
      'm.no_mint',
      'o.status as refund_status',
      'o.signature as refund_signature',
      'o.last_error as refund_error',
      'o.awaiting_funds_since as refund_awaiting_funds_since',
    ])
    .where('t.signature', '=', signature)
    .orderBy('t.transfer_index')
    .execute();
}

export type InboundWithRefund = Awaited<ReturnType<typeof listInboundOfTransaction>>[number];

/** Held transfers whose wait for a step 2 is over (the sweep refunds them). */
export async function listDueHeld(db: Db, now: string, limit: number): Promise<InboundRow[]> {
  return db
    .selectFrom('family_a_inbound_transfers')
    .selectAll()
    .where('state', '=', 'held')
    .where('refund_after', '<=', now)
    .orderBy('refund_after')
    .limit(limit)
    .execute();
}

/** Winning tokens a wallet sent to the platform without a complete claim (counted by its claim). */
export async function listCredits(db: Db, marketId: string, wallet: string, asset: string): Promise<InboundRow[]> {
  return db
    .selectFrom('family_a_inbound_transfers')
    .selectAll()
    .where('market_id', '=', marketId)
    .where('sender_owner', '=', wallet)
    .where('asset', '=', asset)
    .where('state', '=', 'credited')
    .orderBy('created_at')
    .execute();
}

/** Credits whose wallet has claimed the market meanwhile: no claim can count them any more. */
export async function listStrandedCredits(db: Db, limit: number): Promise<InboundRow[]> {
  return db
    .selectFrom('family_a_inbound_transfers as t')
    .innerJoin('family_a_claims as c', (join) => join.onRef('c.market_id', '=', 't.market_id').onRef('c.wallet', '=', 't.sender_owner'))
    .selectAll('t')
    .where('t.state', '=', 'credited')
    .limit(limit)
    .execute();
}

/** Operators: transfers in the given states, newest first, with their refund's status. */
export async function listInboundByState(db: Db, states: InboundState[], limit: number, offset: number) {
  return db
    .selectFrom('family_a_inbound_transfers as t')
    .leftJoin('markets as m', 'm.id', 't.market_id')
    .leftJoin('outbound_transactions as o', 'o.id', 't.outbound_id')
    .selectAll('t')
    .select([
      'm.slug',
      'm.yes_mint',
      'm.no_mint',
      'o.status as refund_status',
      'o.signature as refund_signature',
      'o.last_error as refund_error',
      'o.awaiting_funds_since as refund_awaiting_funds_since',
    ])
    .where('t.state', 'in', states)
    .orderBy('t.created_at', 'desc')
    .orderBy('t.id')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** How many transfers are in each state (the metric); refunds split by their outbound status. */
export async function countInbound(db: Db) {
  return db
    .selectFrom('family_a_inbound_transfers as t')
    .leftJoin('outbound_transactions as o', 'o.id', 't.outbound_id')
    .select((eb) => ['t.state', 'o.status as refund_status', eb.fn.countAll<number | bigint | string>().as('n')])
    .groupBy(['t.state', 'o.status'])
    .execute();
}
