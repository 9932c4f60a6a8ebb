/**
 * What an owner's open orders and unsettled fills hold, per market (the inputs of `withdrawable`
 * and the balances endpoint). Resting orders carry their `committed` amount (USDC for buys,
 * tokens for sells); fills not yet settled hold what settlement will take from each side.
 */
import { sql, type CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { big } from '../codec.js';
import { precompiledRows } from '../precompiled.js';
import type { Database } from '../schema.js';
import { isRestingStatus } from './clob-orders.repository.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface RestingCommitment {
  marketId: string;
  side: 'buy' | 'sell';
  outcome: 'yes' | 'no';
  committed: bigint;
}

export async function restingCommitments(db: Db, owner: string): Promise<RestingCommitment[]> {
  const rows = await db
    .selectFrom('clob_orders')
    .select(['market_id', 'side', 'outcome', sql<bigint | number | string>`sum(committed)`.as('committed')])
    .where('owner', '=', owner)
    .where('status', 'in', ['open', 'partially_filled'])
    .groupBy(['market_id', 'side', 'outcome'])
    .execute();
  return rows.map((r) => ({ marketId: r.market_id, side: r.side, outcome: r.outcome, committed: big(r.committed) }));
}

/** Fill statuses whose money has not moved yet and may still move. */
export const UNSETTLED_FILL_STATUSES = ['matched', 'settling', 'retrying'] as const;

export interface UnsettledFill {
  market_id: string;
  maker_owner: string;
  taker_owner: string;
  taker_side: 'buy' | 'sell';
  outcome: 'yes' | 'no';
  maker_side: 'buy' | 'sell';
  maker_outcome: 'yes' | 'no';
  quantity: bigint;
  usdc_amount: bigint;
  maker_usdc: bigint;
  taker_fee: bigint;
}

/** The owner's unsettled fills as maker or taker (bounded by the settlement backlog). */
export async function unsettledFillsOf(db: Db, owner: string): Promise<UnsettledFill[]> {
  const rows = await db
    .selectFrom('clob_fills')
    .select([
      'market_id',
      'maker_owner',
      'taker_owner',
      'taker_side',
      'outcome',
      'maker_side',
      'maker_outcome',
      'quantity',
      'usdc_amount',
      'maker_usdc',
      'taker_fee',
    ])
    .where((eb) => eb.or([eb('maker_owner', '=', owner), eb('taker_owner', '=', owner)]))
    .where('status', 'in', [...UNSETTLED_FILL_STATUSES])
    .execute();
  return rows.map((r) => ({
    ...r,
    quantity: big(r.quantity),
    usdc_amount: big(r.usdc_amount),
    maker_usdc: big(r.maker_usdc),
    taker_fee: big(r.taker_fee),
  }));
}

/**
 * Whether `owner` has a fill on its way (matched, settling, retrying) in `marketId`: one row at
 * most, where `unsettledFillsOf` reads them all (during a drain a taker has hundreds, and the
 * positions job asked this of every wallet with a gap: issue 31's settle profile). Each side is
 * its own query, so each uses its (owner, status) index.
 */
export async function hasUnsettledFill(db: Db, owner: string, marketId: string): Promise<boolean> {
  for (const side of ['taker_owner', 'maker_owner'] as const) {
    const row = await db
      .selectFrom('clob_fills')
      .select('id')
      .where(side, '=', owner)
      .where('status', 'in', [...UNSETTLED_FILL_STATUSES])
      .where('market_id', '=', marketId)
      .limit(1)
      .executeTakeFirst();
    if (row) return true;
  }
  return false;
}

export interface HoldRow {
  owner: string;
  marketId: string;
  usdc: bigint;
  yes: bigint;
  no: bigint;
}

/**
 * Adds (sign 1) or removes (sign -1) what fills hold: one multi-row upsert, its rows in key order
 * (two writers touching the same owners then lock their rows in the same order).
 */
export async function addOwnerHolds(db: Db, deltas: readonly HoldRow[], sign: 1n | -1n): Promise<void> {
  await upsertHoldRows(db, mergedHoldRows(deltas, sign));
}

/** Deltas summed per (owner, market), signed, in key order (every writer locks hold rows in that order). */
export function mergedHoldRows(deltas: readonly HoldRow[], sign: 1n | -1n): HoldRow[] {
  const merged = new Map<string, HoldRow>();
  for (const d of deltas) {
    const key = `${d.owner}|${d.marketId}`;
    const m = merged.get(key) ?? { owner: d.owner, marketId: d.marketId, usdc: 0n, yes: 0n, no: 0n };
    m.usdc += d.usdc * sign;
    m.yes += d.yes * sign;
    m.no += d.no * sign;
    merged.set(key, m);
  }
  return [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, m]) => m);
}

/** The upsert adding merged rows to the holds, built by Kysely (compiled once per row count below). */
function ownerHoldsUpsert(db: Db, rows: readonly HoldRow[]) {
  return db
    .insertInto('clob_owner_holds')
    .values(rows.map((m) => ({ owner: m.owner, market_id: m.marketId, usdc: m.usdc, yes_tokens: m.yes, no_tokens: m.no })))
    .onConflict((oc) =>
      oc.columns(['owner', 'market_id']).doUpdateSet((eb) => ({
        usdc: eb('clob_owner_holds.usdc', '+', eb.ref('excluded.usdc')),
        yes_tokens: eb('clob_owner_holds.yes_tokens', '+', eb.ref('excluded.yes_tokens')),
        no_tokens: eb('clob_owner_holds.no_tokens', '+', eb.ref('excluded.no_tokens')),
      })),
    );
}

/**
 * The upsert compiled once per database and row count (db/precompiled.ts), one statement of
 * exactly each write's count up to 512 rows, in the order given (the key order of
 * `mergedHoldRows`): Kysely built and compiled it for every matcher batch with fills, 2 % of a
 * single-order batch's CPU in process, more than its insert of the order (issue 31). The text per
 * count is the one Kysely built before, so SQLite's statement cache holds the same statements.
 */
const upsertHoldRows = precompiledRows<HoldRow>({
  maxRows: 512,
  exact: true,
  build: (db, rows) => ownerHoldsUpsert(db, rows),
  // Every value distinct across rows and columns, so each compiled parameter names its column.
  marker: (i) => ({ owner: `owner${i}`, marketId: `market${i}`, usdc: BigInt(3 * i + 1), yes: BigInt(3 * i + 2), no: BigInt(3 * i + 3) }),
  write: (r, parameters) => parameters.push(r.owner, r.marketId, r.usdc, r.yes, r.no),
});

/** The upsert of 1 to 512 merged rows as one compiled statement, to run inside another (clob-batch-writes.ts). */
export function ownerHoldsStatement(db: Db, rows: readonly HoldRow[]): CompiledQuery {
  return upsertHoldRows.one(db, rows);
}

/** The owner's fill holds per market (rows that went back to zero included). */
export async function ownerHoldRows(db: Db, owner: string): Promise<HoldRow[]> {
  const rows = await db.selectFrom('clob_owner_holds').selectAll().where('owner', '=', owner).execute();
  return rows.map((r) => ({ owner: r.owner, marketId: r.market_id, usdc: big(r.usdc), yes: big(r.yes_tokens), no: big(r.no_tokens) }));
}

export interface RestingOrderCommitment extends RestingCommitment {
  id: string;
}

/** The owner's resting orders with what each commits, newest first (the order they leave the book in when uncovered). */
export async function restingOrdersNewestFirst(db: Db, owner: string): Promise<RestingOrderCommitment[]> {
  const rows = await db
    .selectFrom('clob_orders')
    .select(['id', 'market_id', 'side', 'outcome', 'committed'])
    .where('owner', '=', owner)
    .where(isRestingStatus)
    .orderBy('created_at', 'desc')
    .orderBy('seq', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({ id: r.id, marketId: r.market_id, side: r.side, outcome: r.outcome, committed: big(r.committed) }));
}

/** Owners with resting orders, in key order after `afterOwner` (the full index pass checks each one's coverage). */
export async function ownersWithRestingOrders(db: Db, afterOwner: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('clob_orders')
    .select('owner')
    .distinct()
    .where(isRestingStatus)
    .where('owner', '>', afterOwner)
    .orderBy('owner')
    .limit(limit)
    .execute();
  return rows.map((r) => r.owner);
}

/** Groups rows by owner, each owner's rows in the order read; every owner asked has an entry. */
function byOwner<T extends { owner: string }>(owners: readonly string[], rows: readonly T[]): Map<string, T[]> {
  const map = new Map(owners.map((o) => [o, [] as T[]]));
  for (const r of rows) map.get(r.owner)?.push(r);
  return map;
}

/** `restingCommitments` of several owners in one query (the index's reaction to a settlement group's owners). */
export async function restingCommitmentsOf(db: Db, owners: readonly string[]): Promise<Map<string, RestingCommitment[]>> {
  if (owners.length === 0) return new Map();
  const rows = await db
    .selectFrom('clob_orders')
    .select(['owner', 'market_id', 'side', 'outcome', sql<bigint | number | string>`sum(committed)`.as('committed')])
    .where('owner', 'in', [...owners])
    .where('status', 'in', ['open', 'partially_filled'])
    .groupBy(['owner', 'market_id', 'side', 'outcome'])
    .execute();
  const grouped = byOwner(owners, rows);
  return new Map(
    [...grouped].map(([owner, list]) => [
      owner,
      list.map((r) => ({ marketId: r.market_id, side: r.side, outcome: r.outcome, committed: big(r.committed) })),
    ]),
  );
}

/** `ownerHoldRows` of several owners in one query. */
export async function ownerHoldRowsOf(db: Db, owners: readonly string[]): Promise<Map<string, HoldRow[]>> {
  if (owners.length === 0) return new Map();
  const rows = await db
    .selectFrom('clob_owner_holds')
    .selectAll()
    .where('owner', 'in', [...owners])
    .execute();
  const held = rows.map((r) => ({
    owner: r.owner,
    marketId: r.market_id,
    usdc: big(r.usdc),
    yes: big(r.yes_tokens),
    no: big(r.no_tokens),
  }));
  return byOwner(owners, held);
}

/** Which of these owners have a resting order (one query: the coverage check reads the others' no further). */
export async function ownersWithRestingOrdersAmong(db: Db, owners: readonly string[]): Promise<Set<string>> {
  if (owners.length === 0) return new Set();
  const rows = await db
    .selectFrom('clob_orders')
    .select('owner')
    .distinct()
    .where('owner', 'in', [...owners])
    .where(isRestingStatus)
    .execute();
  return new Set(rows.map((r) => r.owner));
}
