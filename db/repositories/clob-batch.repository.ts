/**
 * The matcher's reads at the start of a batch, one query each for all the owners of the batch:
 * used nonces, resting orders' commitments and counts, fill holds, smart-wallet balances. The
 * batch then works in memory (BatchLedger) and writes once.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { big, num } from '../codec.js';
import type { Database } from '../schema.js';

type Db = Kysely<Database> | Transaction<Database>;

const noncesQuery = (db: Db, pairs: readonly { owner: string; nonce: string }[]) =>
  db.selectFrom('clob_orders').select(['owner', 'nonce'])
    .where('owner', 'in', [...new Set(pairs.map((p) => p.owner))])
    .where('nonce', 'in', [...new Set(pairs.map((p) => p.nonce))]);

const usedOf = (pairs: readonly { owner: string; nonce: string }[], rows: readonly { owner: string; nonce: string }[]) => {
  const wanted = new Set(pairs.map((p) => `${p.owner}|${p.nonce}`));
  return new Set(rows.map((r) => `${r.owner}|${r.nonce}`).filter((k) => wanted.has(k)));
};

/** `${owner}|${nonce}` of the pairs already used (a superset query, filtered here). */
export async function usedNonces(db: Db, pairs: readonly { owner: string; nonce: string }[]): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  return usedOf(pairs, await noncesQuery(db, pairs).execute());
}

export interface RestingSum {
  owner: string;
  marketId: string;
  side: 'buy' | 'sell';
  outcome: 'yes' | 'no';
  committed: bigint;
  orders: number;
}

// Sums and amounts are read as text: exact in JSON too (numbers there stop at 2^53).
const restingQuery = (db: Db, owners: readonly string[]) =>
  db.selectFrom('clob_orders')
    .select(['owner', 'market_id', 'side', 'outcome', sql<string>`cast(sum(committed) as text)`.as('committed'), sql<string>`cast(count(*) as text)`.as('orders')])
    .where('owner', 'in', [...owners])
    .where('status', 'in', ['open', 'partially_filled'])
    .groupBy(['owner', 'market_id', 'side', 'outcome']);

const holdsQuery = (db: Db, owners: readonly string[]) =>
  db.selectFrom('clob_owner_holds')
    .select(['owner', 'market_id', sql<string>`cast(usdc as text)`.as('usdc'), sql<string>`cast(yes_tokens as text)`.as('yes_tokens'), sql<string>`cast(no_tokens as text)`.as('no_tokens')])
    .where('owner', 'in', [...owners]);

const balancesQuery = (db: Db, accountOwners: readonly string[], mints: readonly string[]) =>
  db.selectFrom('token_accounts').select(['owner', 'mint', sql<string>`cast(amount as text)`.as('amount')]).where('owner', 'in', [...accountOwners]).where('mint', 'in', [...mints]);

type RestingRow = { owner: string; market_id: string; side: 'buy' | 'sell'; outcome: 'yes' | 'no'; committed: string; orders: string };
type HoldRow = { owner: string; market_id: string; usdc: string; yes_tokens: string; no_tokens: string };
type BalanceRow = { owner: string; mint: string; amount: string };

const restingOf = (rows: readonly RestingRow[]): RestingSum[] =>
  rows.map((r) => ({ owner: r.owner, marketId: r.market_id, side: r.side, outcome: r.outcome, committed: big(r.committed), orders: num(r.orders) }));
const holdsOfRows = (rows: readonly HoldRow[]) => rows.map((r) => ({ owner: r.owner, marketId: r.market_id, usdc: big(r.usdc), yes: big(r.yes_tokens), no: big(r.no_tokens) }));
const balancesOfRows = (rows: readonly BalanceRow[]) => rows.map((r) => ({ owner: r.owner, mint: r.mint, amount: big(r.amount) }));

export async function restingSums(db: Db, owners: readonly string[]): Promise<RestingSum[]> {
  if (owners.length === 0) return [];
  return restingOf(await restingQuery(db, owners).execute());
}

export async function holdsOf(db: Db, owners: readonly string[]) {
  if (owners.length === 0) return [];
  return holdsOfRows(await holdsQuery(db, owners).execute());
}

/** Indexed balances of these token-account owners (escrow PDAs) in these mints. */
export async function balancesOf(db: Db, accountOwners: readonly string[], mints: readonly string[]) {
  if (accountOwners.length === 0 || mints.length === 0) return [];
  return balancesOfRows(await balancesQuery(db, accountOwners, mints).execute());
}

export interface OwnersState {
  nonces: Set<string>;
  resting: RestingSum[];
  holds: ReturnType<typeof holdsOfRows>;
  balances: ReturnType<typeof balancesOfRows>;
}

interface OwnersQuery {
  pairs: readonly { owner: string; nonce: string }[];
  owners: readonly string[];
  accountOwners: readonly string[];
  mints: readonly string[];
}

/** The four reads of a batch's start, one query each (SQLite: no round trips to save). */
export async function ownersState(db: Db, q: OwnersQuery): Promise<OwnersState> {
  const [nonces, resting, holds, balances] = await Promise.all([
    usedNonces(db, q.pairs), restingSums(db, q.owners), holdsOf(db, q.owners), balancesOf(db, q.accountOwners, q.mints),
  ]);
  return { nonces, resting, holds, balances };
}

/**
 * PostgreSQL: the same four reads in one statement, each a JSON array, so a batch pays one round
 * trip instead of four (under load each costs more than a millisecond: the event loop is serving
 * HTTP between them). Same snapshot for all four, as in the transaction's separate reads.
 */
export async function ownersStateInOneStatement(db: Db, q: OwnersQuery): Promise<OwnersState> {
  const none = ['']; // `in ('')` matches nothing and keeps every subquery valid
  const owners = q.owners.length > 0 ? q.owners : none;
  const pairs = q.pairs.length > 0 ? q.pairs : [{ owner: '', nonce: '' }];
  const row = await db
    .selectNoFrom([
      jsonArrayFrom(noncesQuery(db, pairs)).as('nonces'),
      jsonArrayFrom(restingQuery(db, owners)).as('resting'),
      jsonArrayFrom(holdsQuery(db, owners)).as('holds'),
      jsonArrayFrom(balancesQuery(db, q.accountOwners.length > 0 ? q.accountOwners : none, q.mints.length > 0 ? q.mints : none)).as('balances'),
    ])
    .executeTakeFirstOrThrow();
  return {
    nonces: q.pairs.length > 0 ? usedOf(q.pairs, row.nonces) : new Set(),
    resting: restingOf(row.resting as RestingRow[]),
    holds: holdsOfRows(row.holds as HoldRow[]),
    balances: balancesOfRows(row.balances as BalanceRow[]),
  };
}

/**
 * PostgreSQL: locks the owners' smart-wallet rows until commit, so two matchers (of different
 * markets) never check the same owner's funds at once. SQLite serializes writers already.
 */
export async function lockOwners(db: Db, owners: readonly string[]): Promise<void> {
  if (owners.length === 0) return;
  await db.selectFrom('clob_wallets').select('owner').where('owner', 'in', [...owners]).orderBy('owner').forUpdate().execute();
}
