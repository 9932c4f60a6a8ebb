/** Smart wallets the service knows: owner → escrow PDA and its USDC account. */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface ClobWalletRow {
  owner: string;
  escrow: string;
  escrowUsdc: string;
}

/** Remembers a smart wallet (idempotent). */
export async function rememberClobWallet(db: Db, w: ClobWalletRow, now: string): Promise<void> {
  await db
    .insertInto('clob_wallets')
    .values({ owner: w.owner, escrow: w.escrow, escrow_usdc: w.escrowUsdc, created_at: now })
    .onConflict((oc) => oc.column('owner').doNothing())
    .execute();
}

export async function findClobWallet(db: Db, owner: string): Promise<ClobWalletRow | undefined> {
  const row = await db.selectFrom('clob_wallets').select(['owner', 'escrow', 'escrow_usdc']).where('owner', '=', owner).executeTakeFirst();
  return row && { owner: row.owner, escrow: row.escrow, escrowUsdc: row.escrow_usdc };
}

export async function listClobWallets(db: Db, afterOwner: string, limit: number): Promise<ClobWalletRow[]> {
  const rows = await db
    .selectFrom('clob_wallets')
    .select(['owner', 'escrow', 'escrow_usdc'])
    .where('owner', '>', afterOwner)
    .orderBy('owner')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ owner: r.owner, escrow: r.escrow, escrowUsdc: r.escrow_usdc }));
}

export async function findClobWalletByEscrow(db: Db, escrow: string): Promise<ClobWalletRow | undefined> {
  const row = await db
    .selectFrom('clob_wallets')
    .select(['owner', 'escrow', 'escrow_usdc'])
    .where('escrow', '=', escrow)
    .executeTakeFirst();
  return row && { owner: row.owner, escrow: row.escrow, escrowUsdc: row.escrow_usdc };
}

/** The wallets of these escrows, in one query (an escrow with no wallet is absent). */
export async function findClobWalletsByEscrows(db: Db, escrows: readonly string[]): Promise<ClobWalletRow[]> {
  if (escrows.length === 0) return [];
  const rows = await db
    .selectFrom('clob_wallets')
    .select(['owner', 'escrow', 'escrow_usdc'])
    .where('escrow', 'in', [...escrows])
    .execute();
  return rows.map((r) => ({ owner: r.owner, escrow: r.escrow, escrowUsdc: r.escrow_usdc }));
}
