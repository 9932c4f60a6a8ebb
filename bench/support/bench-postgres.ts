/**
 * A fresh PostgreSQL database for one bench run (dropped after) on the machine's server
 * (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres), and the deadlocks the
 * server counted in it (`pg_stat_database.deadlocks`): a database of its own, so other work on the
 * server never adds to the count.
 */
import pg from 'pg';

export interface BenchPostgres {
  url: string;
  /** Deadlocks PostgreSQL detected in this database since it was created. */
  deadlocks(): Promise<number>;
  drop(): Promise<void>;
}

export async function freshPostgresDatabase(tag: string): Promise<BenchPostgres> {
  const server = new URL(process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const name = `pmx_bench_${tag}_${process.pid}`;
  const query = async (statement: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: server.toString() });
    await client.connect();
    try {
      return (await client.query(statement, values)).rows as Array<Record<string, unknown>>;
    } finally {
      await client.end();
    }
  };
  await query(`create database ${name}`);
  const url = new URL(server.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async deadlocks() {
      // The statistics collector publishes counters at most every few hundred ms; ask for a fresh snapshot.
      const rows = await query('select pg_stat_clear_snapshot(), deadlocks from pg_stat_database where datname = $1', [name]);
      return Number(rows[0]?.deadlocks ?? 0);
    },
    drop: async () => {
      await query(`drop database if exists ${name} with (force)`);
    },
  };
}
