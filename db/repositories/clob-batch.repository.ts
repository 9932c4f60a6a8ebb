/**
 * The matcher's reads at the start of a batch, one query each for all the owners of the batch:
 * used nonces, resting orders' commitments and counts, fill holds, smart-wallet balances. The
 * batch then works in memory (BatchLedger) and writes once.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { big, num } from '../codec.js';
import type { Database } from '../schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** `${owner}|${nonce}` of the pairs already used (a superset query, filtered here). */
export async function usedNonces(db: Db, pairs: readonly { owner: string; nonce: string }[]): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const wanted = new Set(pairs.map((p) => `${p.owner}|${p.nonce}`));
  const rows = await db
    .selectFrom('clob_orders')
    .select(['owner', 'nonce'])
    .where('owner', 'in', [...new Set(pairs.map((p) => p.owner))])
    .where('nonce', 'in', [...new Set(pairs.map((p) => p.nonce))])
    .execute();
  return new Set(rows.map((r) => `${r.owner}|${r.nonce}`).filter((k) => wanted.has(k)));
}

export interface RestingSum {
  owner: string;
  marketId: string;
  side: 'buy' | 'sell';
  outcome: 'yes' | 'no';
  committed: bigint;
  orders: number;
}

export async function restingSums(db: Db, owners: readonly string[]): Promise<RestingSum[]> {
  if (owners.length === 0) return [];
  const rows = await db
    .selectFrom('clob_orders')
    .select(['owner', 'market_id', 'side', 'outcome', sql<string>`sum(committed)`.as('committed'), sql<string>`count(*)`.as('orders')])
    .where('owner', 'in', [...owners])
    .where('status', 'in', ['open', 'partially_filled'])
    .groupBy(['owner', 'market_id', 'side', 'outcome'])
    .execute();
  return rows.map((r) => ({
    owner: r.owner,
    marketId: r.market_id,
    side: r.side,
    outcome: r.outcome,
    committed: big(r.committed),
    orders: num(r.orders),
  }));
}

export async function holdsOf(db: Db, owners: readonly string[]) {
  if (owners.length === 0) return [];
  const rows = await db
    .selectFrom('clob_owner_holds')
    .selectAll()
    .where('owner', 'in', [...owners])
    .execute();
  return rows.map((r) => ({ owner: r.owner, marketId: r.market_id, usdc: big(r.usdc), yes: big(r.yes_tokens), no: big(r.no_tokens) }));
}

/** Indexed balances of these token-account owners (escrow PDAs) in these mints. */
export async function balancesOf(db: Db, accountOwners: readonly string[], mints: readonly string[]) {
  if (accountOwners.length === 0 || mints.length === 0) return [];
  const rows = await db
    .selectFrom('token_accounts')
    .select(['owner', 'mint', 'amount'])
    .where('owner', 'in', [...accountOwners])
    .where('mint', 'in', [...mints])
    .execute();
  return rows.map((r) => ({ owner: r.owner, mint: r.mint, amount: big(r.amount) }));
}

/**
 * PostgreSQL: locks the owners' smart-wallet rows until commit, so two matchers (of different
 * markets) never check the same owner's funds at once. SQLite serializes writers already.
 */
export async function lockOwners(db: Db, owners: readonly string[]): Promise<void> {
  if (owners.length === 0) return;
  await db
    .selectFrom('clob_wallets')
    .select('owner')
    .where('owner', 'in', [...owners])
    .orderBy('owner')
    .forUpdate()
    .execute();
}
