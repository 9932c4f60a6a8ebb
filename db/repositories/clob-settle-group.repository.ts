/**
 * A keeper group's fill moves in one statement each, where the per-batch form
 * (clob-settlement.repository.ts) made one round trip a batch: on PostgreSQL each is a server
 * process's turn (~2–4 ms on a loaded machine), on SQLite a call in the daemon's own process.
 * Each fill's own batch (and signature) is a `CASE id WHEN …`, portable to both databases.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface LandedFills {
  batchId: string;
  settleTx: string | undefined;
  fillIds: readonly string[];
}

/** Settles the landed fills of a group's batches (each still in its batch, settling or retrying); returns the ids that moved. */
export async function settleGroupFills(db: Db, batches: readonly LandedFills[], now: string): Promise<string[]> {
  const all = batches.filter((b) => b.fillIds.length > 0);
  if (all.length === 0) return [];
  const byFill = <T>(pick: (b: LandedFills) => T) =>
    sql<T>`case id ${sql.join(
      all.flatMap((b) => b.fillIds.map((id) => sql`when ${id} then ${pick(b)}`)),
      sql` `,
    )} end`;
  const moved = await db
    .updateTable('clob_fills')
    .set({ status: 'settled', updated_at: now, settle_tx: byFill((b) => b.settleTx ?? null), settled_at: now })
    .where(
      'id',
      'in',
      all.flatMap((b) => b.fillIds),
    )
    .where(sql<boolean>`batch_id = ${byFill((b) => b.batchId)}`)
    .where('status', 'in', ['settling', 'retrying'])
    .returning('id')
    .execute();
  return moved.map((r) => r.id);
}
