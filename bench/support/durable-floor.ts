/**
 * The least durable write an accepted order needs, for the placement benches' second floor: each
 * verified order's owner, nonce, message and signature stored under a unique (owner, nonce) key
 * (the nonce must not be reused) and committed before it is answered, with the same durability as
 * the daemon's (SQLite: WAL, synchronous=FULL; PostgreSQL: a plain commit), group-committed as
 * the matcher commits (every order read in one turn of the event loop in one transaction). Raw
 * drivers, one prepared multi-row INSERT: no query builder, no funds check, no matching, no
 * events. What the daemon spends above this floor is what it could cut; what this floor spends
 * above the verify-only floor is what no placement path that keeps its guarantees can.
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';

export interface FloorOrder {
  owner: string;
  nonce: string;
  message: string;
  signature: string;
}

export interface OrderSink {
  /** Resolves true once the order is committed, false when its (owner, nonce) was already stored. */
  record(order: FloorOrder): Promise<boolean>;
}

const TABLE = 'bench_floor_orders';
const CREATE = `create table if not exists ${TABLE} (owner text not null, nonce text not null, message text not null,
  signature text not null, primary key (owner, nonce))`;

interface Waiting {
  order: FloorOrder;
  done(stored: boolean): void;
  failed(error: unknown): void;
}

/** Queues the orders of one turn and hands them to `commit` together (returns the keys it stored). */
function groupCommit(commit: (orders: FloorOrder[]) => Promise<Set<string>>): OrderSink {
  let queue: Waiting[] = [];
  const flush = async () => {
    const batch = queue;
    queue = [];
    try {
      const stored = await commit(batch.map((w) => w.order));
      for (const w of batch) w.done(stored.has(`${w.order.owner}|${w.order.nonce}`));
    } catch (error) {
      for (const w of batch) w.failed(error);
    }
  };
  return {
    record: (order) =>
      new Promise((done, failed) => {
        if (queue.push({ order, done, failed }) === 1) setImmediate(() => void flush());
      }),
  };
}

const values = (count: number, dollar: boolean) =>
  Array.from({ length: count }, (_, row) => `(${[1, 2, 3, 4].map((col) => (dollar ? `$${row * 4 + col}` : '?')).join(', ')})`).join(', ');
const flat = (orders: FloorOrder[]) => orders.flatMap((o) => [o.owner, o.nonce, o.message, o.signature]);
const keys = (rows: Array<{ owner: string; nonce: string }>) => new Set(rows.map((r) => `${r.owner}|${r.nonce}`));

function sqliteSink(file: string): OrderSink {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL'); // as db/database.ts: one fsync per commit
  db.exec(CREATE);
  const statements = new Map<number, SQLite.Statement>();
  const insert = (count: number) => {
    let statement = statements.get(count);
    if (!statement) {
      statement = db.prepare(`insert into ${TABLE} values ${values(count, false)} on conflict do nothing returning owner, nonce`);
      statements.set(count, statement);
    }
    return statement;
  };
  // One statement (a turn holds far fewer than SQLite's 32,766 / 4 rows) in one transaction.
  const commit = db.transaction((orders: FloorOrder[]) =>
    keys(insert(orders.length).all(flat(orders)) as Array<{ owner: string; nonce: string }>),
  );
  return groupCommit(async (orders) => commit(orders));
}

function postgresSink(url: string): OrderSink {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const ready = pool.query(CREATE);
  return groupCommit(async (orders) => {
    await ready;
    // One statement (a turn holds far fewer than 65,535 / 4 rows): its own transaction, committed before it answers.
    const text = `insert into ${TABLE} values ${values(orders.length, true)} on conflict do nothing returning owner, nonce`;
    return keys((await pool.query<{ owner: string; nonce: string }>({ name: `floor-${orders.length}`, text, values: flat(orders) })).rows);
  });
}

/** `sqlite:<file>` or a `postgres://` URL. */
export function openOrderSink(spec: string): OrderSink {
  return spec.startsWith('sqlite:') ? sqliteSink(spec.slice('sqlite:'.length)) : postgresSink(spec);
}
