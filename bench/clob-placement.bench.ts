/**
 * Issue 12's end-to-end placement bench: signed orders through HTTP into the daemon (its own
 * process: embedded cluster, SQLite, private Redis), each one signature-checked, funds-checked,
 * matched and committed before its answer — against the rate of bare Ed25519 verification of the
 * same texts on this machine, in the same run (goal: ≥ 0.5×). Orders alternate a buy and a sell
 * at one price from two traders, so every other order fills and the book stays small.
 * The daemon runs as two processes on one machine, as a deployment would to give the matcher a
 * core of its own: the API and the matcher in one, the embedded ledger, the workers (the
 * settlement keeper among them) and the indexer in the other, on one Redis and one database.
 * The market and the funded traders are set up first by one all-roles process (the dev faucet
 * needs the ledger in-process), which then stops. `BENCH_CLOB_SECONDS` (default 15) sets the load
 * phase; autocannon with `BENCH_CLOB_CONNECTIONS` connections (default 20). `BENCH_CLOB_BACKEND=paused`
 * stops the second process (ledger, settlement keeper, indexer) with SIGSTOP for the load phase
 * and the baseline: a diagnostic of the placement path alone, since on a 2-core machine the
 * keeper's settlement of the fills competes for the same cores. `BENCH_CLOB_DB=postgres` runs the daemons on a fresh
 * PostgreSQL database (on `BENCH_PG_URL`'s server, default the local one) instead of SQLite: a
 * deployment of several processes would, and a commit then does not block the event loop.
 * `BENCH_CLOB_TOPOLOGY=one` runs the daemon as the default `npm start` does instead: every role
 * in one process, at the default log level — issue 31's row: ≥ 0.15× the verify-only floor's
 * orders/s with p99 ≤ 100 ms at 20 connections.
 */
import { verify } from 'node:crypto';
import { cannon } from './support/cannon.js';
import { benchDatabase, pkcs8, signedBody, spki } from './support/clob-world.js';
import { startPlacementTopology } from './support/clob-topology.js';
import { startVerifyOnlyServer } from './support/verify-only.js';
import { describeCpu, startCpuWindow, type Party } from './support/cpu-accounting.js';

const SECONDS = Number(process.env.BENCH_CLOB_SECONDS ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CLOB_CONNECTIONS ?? 20);
const ONE_PROCESS = process.env.BENCH_CLOB_TOPOLOGY === 'one';
const PAUSE_BACKEND = process.env.BENCH_CLOB_BACKEND === 'paused' && !ONE_PROCESS;

/** Bare verification: node's Ed25519 over the same texts with prepared keys (the cheapest possible check). */
function verifyRate(samples: { text: string; sig: Buffer; key: ReturnType<typeof spki> }[], ms: number): number {
  let n = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) {
      const s = samples[(n + i) % samples.length]!;
      if (!verify(null, Buffer.from(s.text), s.key, s.sig)) throw new Error('bad sample');
    }
    n += 100;
  }
  return n / (ms / 1000);
}

/**
 * The floor: the same bodies, connections and duration against a bare Fastify process that only
 * verifies each order (support/verify-only-server.ts). Orders/s.
 */
async function verifyOnlyRate(bodies: string[]): Promise<number> {
  const server = await startVerifyOnlyServer();
  try {
    let next = 0;
    const result = await cannon({
      url: server.url,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [
        {
          method: 'POST',
          path: '/v2/clob/orders',
          headers: { 'content-type': 'application/json' },
          setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }),
        },
      ],
    });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`verify-only server refused ${result.non2xx} and failed ${result.errors} requests`);
    return result['2xx'] / SECONDS;
  } finally {
    server.stop();
  }
}

export async function run(): Promise<void> {
  const database = await benchDatabase();
  try {
    await measure(database.env);
  } finally {
    await database.drop(); // also when a daemon or the setup failed
  }
}

async function measure(databaseEnv: Record<string, string>): Promise<void> {
  console.log(
    `  database: ${databaseEnv.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}; ${ONE_PROCESS ? 'one process (npm start)' : 'two processes'}`,
  );
  const { daemon, backend, market, buyer, seller, stop } = await startPlacementTopology(databaseEnv, {
    prefix: 'bench-clob',
    oneProcess: ONE_PROCESS,
  });
  try {
    // Pre-signed orders: the client's signing cost stays out of the measurement.
    const expected = Math.ceil(SECONDS * 8_000);
    const expiry = BigInt(Math.floor(Date.now() / 1000) + 3600);
    const keys = [pkcs8(buyer), pkcs8(seller)];
    const bodies: string[] = [];
    const samples: { text: string; sig: Buffer; key: ReturnType<typeof spki> }[] = [];
    const pub = [spki(buyer), spki(seller)];
    for (let i = 0; i < expected; i++) {
      const who = i % 2;
      const s = signedBody(
        who === 0 ? buyer : seller,
        keys[who]!,
        market.marketPubkey as string,
        who === 0 ? 'buy' : 'sell',
        BigInt(i + 1),
        expiry,
      );
      bodies.push(s.body);
      if (i < 2_000) samples.push({ text: s.text, sig: s.sig, key: pub[who]! });
    }

    if (PAUSE_BACKEND) backend?.child.kill('SIGSTOP'); // resumed right after the load, before shutdown
    const verifyPerSec = verifyRate(samples, 3_000);
    let next = 0;
    const parties: Party[] = [
      { name: ONE_PROCESS ? 'daemon (every role)' : 'API + matcher', pid: daemon.child.pid! },
      ...(backend ? [{ name: 'ledger + workers', pid: backend.child.pid! }] : []),
      { name: 'load generator', self: true },
      ...(databaseEnv.DATABASE_URL ? [{ name: 'PostgreSQL', command: 'postgres' }] : []),
      { name: 'Redis', command: 'redis-server' },
    ];
    const cpu = startCpuWindow(parties);
    const result = await cannon({
      url: daemon.url,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [
        {
          method: 'POST',
          path: '/v2/clob/orders',
          headers: { 'content-type': 'application/json' },
          setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }),
        },
      ],
    });
    const ok = result['2xx'];
    const used = cpu.end(Math.max(ok, 1));
    if (PAUSE_BACKEND) backend?.child.kill('SIGCONT');
    const placed = ok / SECONDS;
    const verifyAfter = verifyRate(samples, 3_000);
    const baseline = (verifyPerSec + verifyAfter) / 2;
    const lat = result.latency as unknown as Record<string, number>;
    console.log(`  bare Ed25519 verification (node:crypto, prepared keys): ${Math.round(baseline)} /s`);
    console.log(
      `  order placement through HTTP, ${CONNECTIONS} connections: ${Math.round(placed)} orders/s (${ok} accepted, ${result.non2xx} refused, ${result.errors} errors), p50 ${lat.p50} ms, p99 ${lat.p99} ms`,
    );
    console.log(`  ratio ${(placed / baseline).toFixed(2)}× (goal ≥ 0.5×)`);
    for (const line of describeCpu(used, 'order')) console.log(line);
    console.log(`  that ceiling is ${(used.ceilingPerSecond / baseline).toFixed(2)}× bare verification`);
    if (process.env.BENCH_CLOB_FLOOR !== '0') {
      if (PAUSE_BACKEND) backend?.child.kill('SIGSTOP');
      const floor = await verifyOnlyRate(bodies);
      if (PAUSE_BACKEND) backend?.child.kill('SIGCONT');
      console.log(
        `  floor: a bare Fastify route that only verifies the same orders (no funds check, matching or persistence): ${Math.round(floor)} orders/s, ${(floor / baseline).toFixed(2)}× bare verification`,
      );
      console.log(
        `  placement vs that floor: ${(placed / floor).toFixed(2)}×, p99 ${lat.p99} ms${ONE_PROCESS ? ' (issue 31, one process: ≥ 0.15×, p99 ≤ 100 ms)' : ''}`,
      );
    }
    if (next > bodies.length)
      console.log(`  note: ${next - bodies.length} requests reused a signed body (DUPLICATE_NONCE refusals): raise the pre-signed count`);
  } finally {
    await stop();
  }
}
