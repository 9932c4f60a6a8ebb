/**
 * SPL token accounts of indexed outcome mints. Rows carry the slot they were read at; a write
 * from an older slot never replaces a newer one, and a closed account is deleted only by a read
 * at least as new as the row.
 */
import type { Kysely } from 'kysely';
import { big } from '../codec.js';
import { precompiled, precompiledRows } from '../precompiled.js';
import type { Database } from '../schema.js';

export interface TokenAccountRow {
  address: string;
  mint: string;
  owner: string;
  amount: bigint;
  slot: bigint;
}

/**
 * One row per address (the newest slot's), in address order. On PostgreSQL concurrent writers of
 * overlapping accounts (the indexers, the keeper) then lock their rows in one order and cannot
 * deadlock; and one statement never names an address twice (ON CONFLICT refuses that).
 */
export function lockOrdered(rows: TokenAccountRow[]): TokenAccountRow[] {
  // A stable sort keeps an address's reads in the order given, so the newest slot's last read wins
  // below; a sort then one pass costs half of a Map of every address (issue 31).
  const sorted = [...rows].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  const ordered: TokenAccountRow[] = [];
  for (const r of sorted) {
    const last = ordered[ordered.length - 1];
    if (last?.address !== r.address) ordered.push(r);
    else if (r.slot >= last.slot) ordered[ordered.length - 1] = r;
  }
  return ordered;
}

export async function upsertTokenAccounts(db: Kysely<Database>, rows: TokenAccountRow[]): Promise<void> {
  if (rows.length === 0) return;
  await upsertOrdered(db, lockOrdered(rows));
}

type StampedRow = TokenAccountRow & { updated_at: string };

/**
 * The upsert, compiled once per database and chunk size (db/precompiled.ts): building a 500-row
 * insert through Kysely for every chunk cost as much CPU as SQLite's own work (issue 31; CPU for
 * 20,000 rows in one transaction: 160–270 ms before, 115–160 ms now, raw better-sqlite3 inserts
 * of the same rows 90–120 ms, all on the shared 2-core machine). Chunks
 * of at most 128 rows (about 1 ms of SQLite; 128, 256 and 512 cost the same CPU in the bench) keep
 * both databases' parameter limits far away and let the slicing between statements bound a turn.
 */
const upsertChunks = precompiledRows<StampedRow>({
  maxRows: 128,
  build: (db, rows) =>
    db
      .insertInto('token_accounts')
      .values(
        rows.map((r) => ({ address: r.address, mint: r.mint, owner: r.owner, amount: r.amount, slot: r.slot, updated_at: r.updated_at })),
      )
      .onConflict((oc) =>
        oc
          .column('address')
          .doUpdateSet((eb) => ({
            amount: eb.ref('excluded.amount'),
            owner: eb.ref('excluded.owner'),
            slot: eb.ref('excluded.slot'),
            updated_at: eb.ref('excluded.updated_at'),
          }))
          .where('token_accounts.slot', '<=', (eb) => eb.ref('excluded.slot')),
      ),
  marker: (i) => ({
    address: `a${i}`,
    mint: `m${i}`,
    owner: `o${i}`,
    amount: BigInt(-2 * i - 1),
    slot: BigInt(-2 * i - 2),
    updated_at: `u${i}`,
  }),
  write: (r, parameters) => parameters.push(r.address, r.mint, r.owner, r.amount, r.slot, r.updated_at),
});

/** Rows already in lock order, one per address. */
async function upsertOrdered(db: Kysely<Database>, ordered: TokenAccountRow[]): Promise<void> {
  if (ordered.length === 0) return;
  const now = new Date().toISOString();
  await upsertChunks(
    db,
    // A literal, not a spread: copying each row with `...` cost about as much as building it.
    ordered.map((r) => ({ address: r.address, mint: r.mint, owner: r.owner, amount: r.amount, slot: r.slot, updated_at: now })),
  );
}

/**
 * A pass of reads: accounts that exist (`rows`) and accounts found closed (`closed`, each with the
 * slot it was read at), written in one address order across both (the upserts of a run of
 * addresses, then the deletes of the next…), so a pass that meets a closed account still locks
 * its rows in the order every other writer does. An address both read and closed keeps its newer read.
 */
export async function writeTokenAccountReads(
  db: Kysely<Database>,
  rows: TokenAccountRow[],
  closed: ReadonlyArray<{ address: string; slot: bigint }>,
): Promise<void> {
  const upserts = lockOrdered(rows);
  const deletes = new Map<string, bigint>();
  for (const c of closed) if (c.slot > (deletes.get(c.address) ?? -1n)) deletes.set(c.address, c.slot);
  for (const r of upserts) if ((deletes.get(r.address) ?? -1n) <= r.slot) deletes.delete(r.address);
  const ops = [
    ...upserts.filter((r) => !deletes.has(r.address)).map((row) => ({ address: row.address, row })),
    ...[...deletes].map(([address, slot]) => ({ address, slot })),
  ].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  let run: TokenAccountRow[] = [];
  for (const op of ops) {
    if ('row' in op) {
      run.push(op.row);
      continue;
    }
    await upsertOrdered(db, run);
    run = [];
    await deleteClosedTokenAccount(db, op.address, op.slot);
  }
  await upsertOrdered(db, run);
}

export async function deleteClosedTokenAccount(db: Kysely<Database>, address: string, slot: bigint): Promise<void> {
  await db.deleteFrom('token_accounts').where('address', '=', address).where('slot', '<=', slot).execute();
}

/** Removes rows of `mint` not seen in a full pass read at `slot` (accounts closed since). */
export async function deleteUnseenForMint(db: Kysely<Database>, mint: string, seen: string[], slot: bigint): Promise<void> {
  let query = db.deleteFrom('token_accounts').where('mint', '=', mint).where('slot', '<', slot);
  if (seen.length > 0) query = query.where('address', 'not in', seen);
  await query.execute();
}

/** The wallet's non-zero balances per mint (several accounts of one mint are summed). */
/** Every positions read runs this: compiled once (db/precompiled.ts); the 0 is a value too. */
const positiveBalancesOf = precompiled((db, owner: string, above: bigint) =>
  db.selectFrom('token_accounts').select(['mint', 'amount']).where('owner', '=', owner).where('amount', '>', above),
);

export async function balancesByOwner(db: Kysely<Database>, owner: string): Promise<Map<string, bigint>> {
  const rows = await positiveBalancesOf(db, owner, 0n);
  const balances = new Map<string, bigint>();
  for (const r of rows) balances.set(r.mint, (balances.get(r.mint) ?? 0n) + big(r.amount));
  return balances;
}

/** The owner's indexed token accounts of these mints (any amount), by the (owner, mint) index. */
export async function tokenAccountsOf(
  db: Kysely<Database>,
  owner: string,
  mints: string[],
): Promise<Array<{ address: string; mint: string; amount: bigint }>> {
  if (mints.length === 0) return [];
  const rows = await db
    .selectFrom('token_accounts')
    .select(['address', 'mint', 'amount'])
    .where('owner', '=', owner)
    .where('mint', 'in', mints)
    .execute();
  return rows.map((r) => ({ address: r.address, mint: r.mint, amount: big(r.amount) }));
}

/** Every indexed token account of these owners (any mint, any amount), in one query by the owner index. */
export async function tokenAccountsOfOwners(
  db: Kysely<Database>,
  owners: readonly string[],
): Promise<Array<{ address: string; mint: string; owner: string; amount: bigint }>> {
  if (owners.length === 0) return [];
  const rows = await db
    .selectFrom('token_accounts')
    .select(['address', 'mint', 'owner', 'amount'])
    .where('owner', 'in', [...owners])
    .execute();
  return rows.map((r) => ({ address: r.address, mint: r.mint, owner: r.owner, amount: big(r.amount) }));
}
