/**
 * Issue 30's batch bench, in the placement bench's deployment (support/clob-topology.ts: API +
 * matcher in one process, ledger + workers + indexer in another): signed orders placed through
 * POST /v2/clob/orders/batch in batches of 1, 5 and 20 orders per request, each size for
 * `BENCH_BATCH_SECONDS` (default 10) with `BENCH_BATCH_CONNECTIONS` connections (default 20).
 * Per size it prints orders placed per second and the API + matcher process's CPU per order,
 * and, in the same run, the floor: the same bodies against a bare Fastify process that only
 * verifies each order (support/verify-only-server.ts), with its CPU per order. Issue 31's goal
 * is stated against that floor: API + matcher CPU per order ≤ 1.6× the floor's for single
 * orders, ≤ 1.2× in batches of 20. A second floor, in the same run, adds to the first the least
 * durable write an order needs (support/durable-floor.ts: each order stored under its unique
 * (owner, nonce) and group-committed before its answer, on the run's database kind): when the
 * durable floor alone is above the goal, the goal is out of reach of any placement that keeps
 * its guarantees, and the ratio against the durable floor is what is left to cut. Orders alternate a buy and a sell at one price from two
 * traders, so every other order fills and the book stays small. Each process's idle CPU (beats,
 * pollers), read over 3 s before the loads, is taken out of its CPU per order. `BENCH_CLOB_DB=postgres` runs
 * the daemons on a fresh PostgreSQL database.
 */
import path from 'node:path';
import { tempDir } from '../test/helpers/databases.js';
import { cannon } from './support/cannon.js';
import { benchDatabase, pkcs8, signedBody } from './support/clob-world.js';
import { startPlacementTopology } from './support/clob-topology.js';
import { startCpuWindow } from './support/cpu-accounting.js';
import { startVerifyOnlyServer } from './support/verify-only.js';

const SECONDS = Number(process.env.BENCH_BATCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_BATCH_CONNECTIONS ?? 20);
const SIZES = (process.env.BENCH_BATCH_SIZES ?? '1,5,20').split(',').map(Number);
/** Orders signed per size before its load: more than the daemon can place in SECONDS. */
const ORDERS_PER_SIZE = Number(process.env.BENCH_BATCH_ORDERS ?? SECONDS * 8_000);

/** CPU seconds per second the process spends with no load (timers, beats, pollers), read over 3 s. */
async function idleCpuPerSecond(pid: number): Promise<number> {
  const window = startCpuWindow([{ name: 'server', pid }]);
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  return (window.end(1).perUnitUs.get('server') ?? 0) / 3 / 1e6;
}

/** How many batches the daemon's matcher has committed (its batch-size histogram's count); null when /metrics cannot say. */
async function matcherBatches(url: string): Promise<number | null> {
  try {
    const text = await (await fetch(`${url}/metrics`)).text();
    const m = /^pmx_clob_matcher_batch_size_count(?:\{[^}]*\})? (\d+)$/m.exec(text);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

interface Load {
  ordersPerSecond: number;
  /** CPU µs per order of the serving process. */
  cpuPerOrderUs: number;
  p99: number;
  refused: number;
}

/** Drives `url` with the batch bodies and reads the serving process's CPU over the window. */
async function load(url: string, pid: number, bodies: string[], size: number, idle: number, reuse = false): Promise<Load> {
  let next = 0;
  let refused = 0;
  const cpu = startCpuWindow([{ name: 'server', pid }]);
  const result = await cannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        path: '/v2/clob/orders/batch',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }),
        // A refused order is answered in the error envelope inside a 200: count them.
        onResponse: (status: number, body: string) => {
          refused += status === 200 ? body.split('"error":"').length - 1 : size;
        },
      },
    ],
  });
  const orders = result['2xx'] * size - refused;
  const used = cpu.end(Math.max(orders, 1));
  // The process's idle work (beats, pollers) is not the orders' cost: taken out, at its idle rate.
  const idleUs = (idle * SECONDS * 1e6) / Math.max(orders, 1);
  if (next > bodies.length && !reuse) throw new Error(`${next - bodies.length} batches reused signed orders: raise BENCH_BATCH_ORDERS`);
  return {
    ordersPerSecond: orders / SECONDS,
    cpuPerOrderUs: (used.perUnitUs.get('server') ?? NaN) - idleUs,
    p99: result.latency.p99,
    refused,
  };
}

export async function run(): Promise<void> {
  const database = await benchDatabase();
  try {
    await measure(database.env);
  } finally {
    await database.drop();
  }
}

async function measure(databaseEnv: Record<string, string>): Promise<void> {
  console.log(`  database: ${databaseEnv.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}; ${CONNECTIONS} connections, ${SECONDS} s per size`);
  const world = await startPlacementTopology(databaseEnv, { prefix: 'bench-batch' });
  const floor = await startVerifyOnlyServer();
  const durable = await startVerifyOnlyServer({
    durable: databaseEnv.DATABASE_URL ?? `sqlite:${path.join(tempDir('pmx-bench-floor-'), 'floor.db')}`,
  });
  try {
    const keys = [pkcs8(world.buyer), pkcs8(world.seller)];
    const expiry = BigInt(Math.floor(Date.now() / 1000) + 3600);
    let nonce = 0n;
    const idle = {
      ours: await idleCpuPerSecond(world.daemon.child.pid!),
      floor: await idleCpuPerSecond(floor.child.pid!),
      durable: await idleCpuPerSecond(durable.child.pid!),
    };
    console.log(
      `  idle CPU (taken out of CPU per order): API + matcher ${(idle.ours * 100).toFixed(1)} %, floor ${(idle.floor * 100).toFixed(1)} %, ` +
        `durable floor ${(idle.durable * 100).toFixed(1)} % of a core`,
    );
    for (const size of SIZES) {
      // Signed before any timing: the client's signing cost stays out of the measurement.
      const orders: string[] = [];
      for (let i = 0; i < ORDERS_PER_SIZE; i++) {
        const who = i % 2;
        const owner = who === 0 ? world.buyer : world.seller;
        orders.push(signedBody(owner, keys[who]!, world.market.marketPubkey as string, who === 0 ? 'buy' : 'sell', ++nonce, expiry).body);
      }
      const bodies: string[] = [];
      for (let i = 0; i + size <= orders.length; i += size) bodies.push(`{"orders":[${orders.slice(i, i + size).join(',')}]}`);
      const batchesBefore = await matcherBatches(world.daemon.url);
      const ours = await load(world.daemon.url, world.daemon.child.pid!, bodies, size, idle.ours);
      const batchesAfter = await matcherBatches(world.daemon.url);
      // Orders per matcher batch: each batch's fixed cost (its statements, commit, publish) is shared by these.
      const perBatch =
        batchesBefore !== null && batchesAfter !== null && batchesAfter > batchesBefore
          ? `, ${((ours.ordersPerSecond * SECONDS) / (batchesAfter - batchesBefore)).toFixed(1)} orders per matcher batch`
          : '';
      const bare = await load(floor.url, floor.child.pid!, bodies, size, idle.floor, true); // the floor checks no nonces: reuse is fine
      // Its own database: the orders are new to it (a reused nonce would be refused and not counted).
      const stored = await load(durable.url, durable.child.pid!, bodies, size, idle.durable);
      console.log(
        `  batches of ${size}: ${Math.round(ours.ordersPerSecond)} orders/s (p99 ${ours.p99} ms, ${ours.refused} refused), ` +
          `API + matcher CPU ${Math.round(ours.cpuPerOrderUs)} µs/order${perBatch}; floor ${Math.round(bare.ordersPerSecond)} orders/s, ` +
          `${Math.round(bare.cpuPerOrderUs)} µs/order; CPU ratio ${(ours.cpuPerOrderUs / bare.cpuPerOrderUs).toFixed(2)}× ` +
          `(goal ≤ ${size >= 20 ? '1.2' : '1.6'}×${size > 1 && size < 20 ? ', between the two' : ''})`,
      );
      console.log(
        `    durable floor (verify + one group-committed INSERT per order): ${Math.round(stored.ordersPerSecond)} orders/s ` +
          `(${stored.refused} refused), ${Math.round(stored.cpuPerOrderUs)} µs/order = ` +
          `${(stored.cpuPerOrderUs / bare.cpuPerOrderUs).toFixed(2)}× the floor; API + matcher ` +
          `${(ours.cpuPerOrderUs / stored.cpuPerOrderUs).toFixed(2)}× the durable floor`,
      );
    }
  } finally {
    floor.stop();
    durable.stop();
    await world.stop();
  }
}
