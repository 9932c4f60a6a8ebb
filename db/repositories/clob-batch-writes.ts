/**
 * A matcher batch's writes on PostgreSQL in ONE statement: its new orders, the changed states of
 * existing orders, its fills and the holds they add, each a data-modifying CTE of one statement.
 * Each statement is a round trip inside the batch's transaction, which the next batch waits for:
 * a batch that fills a resting order wrote them in four (issue 31). The same rows and values
 * (the inserts' precompiled texts, the upsert's, and the update as `UPDATE … FROM (VALUES …)`
 * instead of a WITH of its own), in one transaction as before.
 *
 * Every CTE writes rows no other CTE of the statement touches (an order is either inserted or
 * updated by a batch, never both: placement-writer.ts), so none depends on what another wrote, and
 * no table here has a foreign key to another. PostgreSQL's documentation leaves the order of a
 * statement's data-modifying CTEs unspecified; the main query reads each CTE's count in turn, in
 * the order the separate statements ran (orders, order states, fills, holds), and PostgreSQL runs
 * a CTE's statement when it is first read, so the row locks are taken in that order as before
 * (docs/performance.md, "Lock order": the holds last, in key order).
 */
import { CompiledQuery, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { ClobOrdersTable, Database } from '../schema.js';
import { ownerHoldsStatement, type HoldRow } from './clob-commitments.repository.js';
import { matchedFillsStatement, type MatchedFillInsert } from './clob-fill-inserts.js';
import { insertOrdersStatement, orderStatesUpdate, type OrderStateChange } from './clob-orders.repository.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface BatchWriteRows {
  orders: readonly Insertable<ClobOrdersTable>[];
  states: readonly OrderStateChange[];
  fills: readonly MatchedFillInsert[];
  /** Merged and in key order (mergedHoldRows), added. */
  holds: readonly HoldRow[];
}

/** Rows one statement takes: the precompiled inserts' largest size, the update's and the upsert's chunk. */
export function fitsOneStatement(rows: BatchWriteRows): boolean {
  return rows.orders.length <= 64 && rows.fills.length <= 64 && rows.states.length <= 500 && rows.holds.length <= 500;
}

/** A compiled statement's text with its parameters `$1…$n` renumbered from `offset + 1` (no text of these holds a `$` otherwise). */
function shifted(query: CompiledQuery, offset: number): string {
  let count = 0;
  const text = query.sql.replace(/\$(\d+)/g, (_, n: string) => {
    count++;
    return `$${Number(n) + offset}`;
  });
  if (count !== query.parameters.length) throw new Error('batch writes: a statement part holds a $ that is not a parameter');
  return text;
}

/** The statement's text for its parts' texts (see `statementText`). */
const texts = new Map<string, string>();
/** Distinct texts kept: a batch's shape is its four row counts, so a steady load repeats a few dozen. */
const MAX_TEXTS = 256;

/**
 * The one statement's text for these parts, built once per distinct set of part texts: the parts'
 * texts depend only on their row counts, and renumbering a 64-row insert's parameters with a regex
 * was a sizeable share of a small batch's statement work on PostgreSQL (issue 31).
 */
function statementText(parts: ReadonlyArray<readonly [name: string, query: CompiledQuery]>): string {
  const key = parts.map(([name, query]) => `${name}\u0000${query.sql}`).join('\u0000');
  let text = texts.get(key);
  if (text === undefined) {
    let offset = 0;
    const ctes: string[] = [];
    for (const [name, query] of parts) {
      ctes.push(`${name} as (${shifted(query, offset)} returning 1)`);
      offset += query.parameters.length;
    }
    // Each CTE's count, read in the order the four statements ran (the lock order: see above).
    const counts = parts.map(([name]) => `(select count(*) from ${name}) as ${name}`).join(', ');
    text = `with ${ctes.join(', ')} select ${counts}`;
    if (texts.size >= MAX_TEXTS) texts.clear();
    texts.set(key, text);
  }
  return text;
}

/** Writes the rows in one statement (PostgreSQL only; `fitsOneStatement` first). */
export async function writeBatchRows(db: Db, now: string, rows: BatchWriteRows): Promise<void> {
  const parts: Array<[name: string, query: CompiledQuery]> = [];
  if (rows.orders.length > 0) parts.push(['o', insertOrdersStatement(db, rows.orders)]);
  if (rows.states.length > 0) parts.push(['u', orderStatesUpdate(rows.states, now).compile(db)]);
  if (rows.fills.length > 0) parts.push(['f', matchedFillsStatement(db, rows.fills)]);
  if (rows.holds.length > 0) parts.push(['h', ownerHoldsStatement(db, rows.holds)]);
  if (parts.length === 0) return;
  const parameters: unknown[] = [];
  for (const [, query] of parts) for (const p of query.parameters) parameters.push(p);
  await db.executeQuery(CompiledQuery.raw(statementText(parts), parameters));
}
