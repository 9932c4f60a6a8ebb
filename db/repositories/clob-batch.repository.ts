/**
 * The matcher's reads at the start of a batch, for all the owners of the batch in one statement:
 * used nonces, resting orders' commitments and counts, fill holds, smart-wallet balances. The
 * batch then works in memory (BatchLedger) and writes once.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { big, num } from '../codec.js';
import type { Database } from '../schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface RestingSum {
  owner: string;
  marketId: string;
  side: 'buy' | 'sell';
  outcome: 'yes' | 'no';
  committed: bigint;
  orders: number;
}

export interface BatchStartRows {
  /** `${owner}|${nonce}` of the pairs already used. */
  nonces: Set<string>;
  /** Resting orders' commitments and counts per owner, market, side and outcome. */
  resting: RestingSum[];
  /** What the owners' unsettled fills hold, per market. */
  holds: Array<{ owner: string; marketId: string; usdc: bigint; yes: bigint; no: bigint }>;
  /** Indexed balances of the owners' smart wallets (token-account owners, the escrow PDAs) in these mints. */
  balances: Array<{ owner: string; mint: string; amount: bigint }>;
}

interface StartRow {
  kind: 'n' | 'r' | 'h' | 'b';
  owner: string;
  a: string;
  side: 'buy' | 'sell' | null;
  outcome: 'yes' | 'no' | null;
  v1: string | null;
  v2: string | null;
  v3: string | null;
}

const list = (values: readonly string[]) => sql.join(values.map((v) => sql`${v}`));

/**
 * The four reads of a batch's start in ONE statement (a UNION ALL of one select each, their
 * numbers as text so that the branches' columns agree on both dialects): on PostgreSQL each
 * statement is a round trip inside the matcher's transaction, four of the sixteen a batch made
 * (issue 31). Every branch names its columns: any of them may come first. Used nonces: a
 * superset query (owners × nonces), filtered here to the pairs asked.
 */
export async function batchStartRows(
  db: Db,
  q: {
    pairs: readonly { owner: string; nonce: string }[];
    owners: readonly string[];
    escrows: readonly string[];
    mints: readonly string[];
  },
): Promise<BatchStartRows> {
  const out: BatchStartRows = { nonces: new Set(), resting: [], holds: [], balances: [] };
  const branches = [];
  if (q.pairs.length > 0) {
    const owners = list([...new Set(q.pairs.map((p) => p.owner))]);
    const nonces = list([...new Set(q.pairs.map((p) => p.nonce))]);
    branches.push(sql`select 'n' as kind, owner, nonce as a, null as side, null as outcome,
        null as v1, null as v2, null as v3
      from clob_orders where owner in (${owners}) and nonce in (${nonces})`);
  }
  if (q.owners.length > 0) {
    const owners = list(q.owners);
    branches.push(sql`select 'r' as kind, owner, market_id as a, side, outcome,
        cast(sum(committed) as text) as v1, cast(count(*) as text) as v2, null as v3
      from clob_orders where owner in (${owners}) and status in ('open', 'partially_filled') group by owner, market_id, side, outcome`);
    branches.push(sql`select 'h' as kind, owner, market_id as a, null as side, null as outcome, cast(usdc as text) as v1,
        cast(yes_tokens as text) as v2, cast(no_tokens as text) as v3
      from clob_owner_holds where owner in (${owners})`);
  }
  if (q.escrows.length > 0 && q.mints.length > 0) {
    branches.push(sql`select 'b' as kind, owner, mint as a, null as side, null as outcome,
        cast(amount as text) as v1, null as v2, null as v3
      from token_accounts where owner in (${list(q.escrows)}) and mint in (${list(q.mints)})`);
  }
  if (branches.length === 0) return out;
  const { rows } = await sql<StartRow>`${sql.join(branches, sql` union all `)}`.execute(db);
  const wanted = new Set(q.pairs.map((p) => `${p.owner}|${p.nonce}`));
  for (const r of rows) {
    if (r.kind === 'n') {
      if (wanted.has(`${r.owner}|${r.a}`)) out.nonces.add(`${r.owner}|${r.a}`);
    } else if (r.kind === 'r') {
      out.resting.push({ owner: r.owner, marketId: r.a, side: r.side!, outcome: r.outcome!, committed: big(r.v1!), orders: num(r.v2!) });
    } else if (r.kind === 'h') {
      out.holds.push({ owner: r.owner, marketId: r.a, usdc: big(r.v1!), yes: big(r.v2!), no: big(r.v3!) });
    } else out.balances.push({ owner: r.owner, mint: r.a, amount: big(r.v1!) });
  }
  return out;
}

/**
 * A matcher batch's fence: every market it writes still holds this matcher's epoch (a matcher that
 * lost a market can never write to it again), its row written in place so that it stays locked
 * until commit (on SQLite that write also takes the database's write lock for the batch). Returns
 * a market whose epoch is not held, if any.
 *
 * On PostgreSQL (`owners` given) the same statement then locks the owners' smart-wallet rows in
 * owner order until commit, so two matchers (of different markets) never check one owner's funds
 * at once: the fence and the lock were two round trips of the batch's transaction (issue 31). The
 * owners are locked even when a market is lost; the batch then rolls back and releases them.
 */
export async function fenceBatch(
  db: Db,
  fences: ReadonlyArray<{ marketId: string; epoch: bigint }>,
  owners?: readonly string[],
): Promise<string | undefined> {
  if (fences.length === 0) return undefined; // nothing to write: no owner of the batch either
  type Row = { id: string; epoch: string | null };
  const update = sql<Row>`update clob_markets set matcher_epoch = matcher_epoch
    where market_id in (${list(fences.map((f) => f.marketId))}) returning market_id as id, cast(matcher_epoch as text) as epoch`;
  const { rows } =
    owners && owners.length > 0
      ? // A data-modifying CTE runs once, to completion; the main query reads it first, then the locks.
        await sql<Row>`with fenced as (${update}),
          locked as (select owner from clob_wallets where owner in (${list(owners)}) order by owner for update)
          select id, epoch from fenced union all select owner, null from locked`.execute(db)
      : await update.execute(db);
  const held = new Map(rows.flatMap((r) => (r.epoch === null ? [] : [[r.id, r.epoch] as const])));
  return fences.find((f) => held.get(f.marketId) !== f.epoch.toString())?.marketId;
}
