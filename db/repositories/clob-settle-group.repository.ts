/**
 * A keeper group's fill moves in one statement each, where the per-batch form
 * (clob-settlement.repository.ts) made one round trip a batch: on PostgreSQL each is a server
 * process's turn (~2–4 ms on a loaded machine), on SQLite a call in the daemon's own process.
 * Each fill's own batch (and signature) is a `CASE id WHEN …`, portable to both databases. Also
 * the group's batches and their fills' places, inserted together.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../schema.js';
import type { FillAmounts, FillRow } from './clob-fills.repository.js';
import type { NewBatch } from './clob-settlement.repository.js';
import { isPostgresDb, lockFills, lockOrder } from '../row-locks.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface LandedFills {
  batchId: string;
  settleTx: string | undefined;
  fillIds: readonly string[];
}

/** Fills a statement carries: up to 18 parameters each (SQLite allows 32,766, PostgreSQL 65,535). */
const CHUNK = 1000;

/**
 * Settles the landed fills of a group's batches (each still in its batch, settling or retrying);
 * returns the rows that moved, as they are now (the `settled` announcement's, which read them
 * again in a statement of its own). `amounts`: each fill's receipt, written by the same UPDATE (was a
 * second UPDATE of the same rows: a round trip and a row version a fill more on PostgreSQL); only
 * the fills that move take them, as only those did before.
 */
export async function settleGroupFills(
  db: Db,
  batches: readonly LandedFills[],
  now: string,
  amounts?: ReadonlyMap<string, FillAmounts>,
): Promise<FillRow[]> {
  const pairs = batches.flatMap((b) => b.fillIds.map((id) => ({ id, b })));
  const moved: FillRow[] = [];
  for (let i = 0; i < pairs.length; i += CHUNK) moved.push(...(await settleChunk(db, pairs.slice(i, i + CHUNK), now, amounts)));
  return moved;
}

/**
 * `settleGroupFills` in a transaction that first locks `lockIds` (every fill it may write, in id
 * order: db/row-locks.ts). On PostgreSQL, when it writes no fill but these (`lockIds` all landed)
 * and they fit one statement, the UPDATE takes the locks itself, from a materialized CTE sorted as
 * lockFills sorts (`FOR NO KEY UPDATE`): it writes only rows the CTE returned, and the CTE locks in
 * id order as it returns them, so every wait is one of lockFills's sorted waits. The plan may read
 * the CTE only once a row passes the UPDATE's other conditions, so a fill the UPDATE leaves alone
 * may stay unlocked: hence only when no later statement writes one. A round trip a group fewer on
 * the keeper's path (issue 31, fifteenth pass); otherwise lockFills, then the UPDATE.
 */
export async function settleLockedGroupFills(
  trx: Transaction<Database>,
  batches: readonly LandedFills[],
  now: string,
  amounts: ReadonlyMap<string, FillAmounts>,
  lockIds: readonly string[],
): Promise<FillRow[]> {
  const pairs = batches.flatMap((b) => b.fillIds.map((id) => ({ id, b })));
  const landed = new Set(pairs.map((p) => p.id));
  if (!isPostgresDb(trx) || pairs.length === 0 || pairs.length > CHUNK || !lockIds.every((id) => landed.has(id))) {
    await lockFills(trx, lockIds);
    return settleGroupFills(trx, batches, now, amounts);
  }
  return settleChunk(trx, pairs, now, amounts, lockOrder(landed));
}

async function settleChunk(
  db: Db,
  pairs: ReadonlyArray<{ id: string; b: LandedFills }>,
  now: string,
  amounts: ReadonlyMap<string, FillAmounts> | undefined,
  lockIds?: readonly string[],
): Promise<FillRow[]> {
  const byFill = <T>(pick: (id: string, b: LandedFills) => T) =>
    sql<T>`case id ${sql.join(
      pairs.map(({ id, b }) => sql`when ${id} then ${pick(id, b)}`),
      sql` `,
    )} end`;
  // A fill without a receipt keeps its column as it is (`else` the column itself).
  const amount = (column: string, pick: (a: FillAmounts) => bigint) =>
    sql<bigint>`case id ${sql.join(
      pairs.flatMap(({ id }) => {
        const a = amounts?.get(id);
        return a ? [sql`when ${id} then cast(${pick(a)} as bigint)`] : [];
      }),
      sql` `,
    )} else ${sql.ref(column)} end`;
  const receipts = amounts !== undefined && pairs.some(({ id }) => amounts.has(id));
  const values = {
    status: 'settled' as const,
    updated_at: now,
    settle_tx: byFill((_, b) => b.settleTx ?? null),
    settled_at: now,
    ...(receipts
      ? {
          usdc_amount: amount('usdc_amount', (a) => a.usdcAmount),
          maker_usdc: amount('maker_usdc', (a) => a.makerUsdc),
          taker_fee: amount('taker_fee', (a) => a.takerFee),
          maker_rebate: amount('maker_rebate', (a) => a.makerRebate),
          protocol_fee: amount('protocol_fee', (a) => a.protocolFee),
          rounding_dust: amount('rounding_dust', (a) => a.roundingDust),
        }
      : {}),
  };
  const ids = pairs.map(({ id }) => id);
  const inItsBatch = sql<boolean>`batch_id = ${byFill((_, b) => b.batchId)}`;
  if (!lockIds)
    return db
      .updateTable('clob_fills')
      .set(values)
      .where('id', 'in', ids)
      .where(inItsBatch)
      .where('status', 'in', ['settling', 'retrying'])
      .returningAll()
      .execute();
  return db
    .with(
      (cte) => cte('locked').materialized(),
      (q) =>
        q
          .selectFrom('clob_fills')
          .select('id')
          .where('id', 'in', lockIds)
          .orderBy(sql`id collate "C"`)
          .forNoKeyUpdate(),
    )
    .updateTable('clob_fills')
    .set(values)
    .where('id', 'in', (eb) => eb.selectFrom('locked').select('id'))
    .where('id', 'in', ids)
    .where(inItsBatch)
    .where('status', 'in', ['settling', 'retrying'])
    .returningAll()
    .execute();
}

/**
 * A group's batches and their fills' places, one statement each (was two per batch); on
 * PostgreSQL one statement for both (the batches' insert a CTE of the places' insert: a round trip
 * to the server a group fewer; new rows only, so no row of another writer is locked by it).
 */
export async function insertBatches(db: Db, batches: readonly NewBatch[]): Promise<void> {
  if (batches.length === 0) return;
  const rows = batchRows(batches);
  const places = placeRows(batches);
  // 3 parameters a row: chunks stay far below SQLite's and PostgreSQL's limits.
  const CHUNK = 1000;
  if (isPostgresDb(db) && places.length > 0 && places.length <= CHUNK) {
    await db
      .with('batches', (q) => q.insertInto('clob_settlement_batches').values(rows))
      .insertInto('clob_batch_fills')
      .values(places)
      .execute();
    return;
  }
  await db.insertInto('clob_settlement_batches').values(rows).execute();
  for (let i = 0; i < places.length; i += CHUNK)
    await db
      .insertInto('clob_batch_fills')
      .values(places.slice(i, i + CHUNK))
      .execute();
}

/** The batches' rows, new and pending. */
export function batchRows(batches: readonly NewBatch[]) {
  return batches.map((b) => ({
    id: b.id,
    market_id: b.marketId,
    outbound_id: b.outboundId,
    status: 'pending' as const,
    fill_count: b.fillIds.length,
    created_at: b.now,
    updated_at: b.now,
  }));
}

/** Each fill's place in its batch. */
export function placeRows(batches: readonly NewBatch[]) {
  return batches.flatMap((b) => b.fillIds.map((fillId, position) => ({ batch_id: b.id, fill_id: fillId, position })));
}
