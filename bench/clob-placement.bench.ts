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
 */
import { spawn } from 'node:child_process';
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { createInterface } from 'node:readline';
import { Connection, Keypair, PublicKey, VersionedTransaction } from '@solana/web3.js';
import autocannon from 'autocannon';
import pg from 'pg';
import { encodeOrderMessage, orderSigningText } from '../src/domain/orderbook/index.js';
import { spawnDaemon, waitForLedgerRpc, waitForStatus } from '../test/daemon/daemon-process.js';
import { findFreePort } from '../src/infra/free-port.js';
import { tempDir } from '../test/helpers/databases.js';
import { describeCpu, startCpuWindow, type Party } from './support/cpu-accounting.js';

const SECONDS = Number(process.env.BENCH_CLOB_SECONDS ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CLOB_CONNECTIONS ?? 20);
const PAUSE_BACKEND = process.env.BENCH_CLOB_BACKEND === 'paused';
const ADMIN = 'bench-clob-admin-token-0123456789';
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const pkcs8 = (k: Keypair) =>
  createPrivateKey({
    key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(k.secretKey.subarray(0, 32))]),
    format: 'der',
    type: 'pkcs8',
  });
const spki = (k: Keypair) =>
  createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), k.publicKey.toBuffer()]),
    format: 'der',
    type: 'spki',
  });

function signedBody(
  owner: Keypair,
  key: ReturnType<typeof pkcs8>,
  market: string,
  side: 'buy' | 'sell',
  nonce: bigint,
  expiry: bigint,
): { body: string; text: string; sig: Buffer } {
  const bytes = encodeOrderMessage({
    market: new PublicKey(market).toBytes(),
    owner: owner.publicKey.toBytes(),
    side,
    outcome: 'yes',
    priceBps: 5000,
    quantity: 1_000_000n,
    nonce,
    expiry,
  });
  const text = orderSigningText(bytes);
  const sig = sign(null, Buffer.from(text), key);
  const orderMessage = {
    market,
    owner: owner.publicKey.toBase58(),
    side: side === 'buy' ? 0 : 1,
    outcome: 0,
    priceBps: 5000,
    quantity: '1000000',
    nonce: nonce.toString(),
    expiry: expiry.toString(),
  };
  return { body: JSON.stringify({ orderMessage, signature: sig.toString('base64') }), text, sig };
}

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

function cannon(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => autocannon(opts, (err, result) => (err ? reject(err) : resolve(result))));
}

/**
 * The floor: the same bodies, connections and duration against a bare Fastify process that only
 * verifies each order (support/verify-only-server.ts). Orders/s.
 */
async function verifyOnlyRate(bodies: string[]): Promise<number> {
  const child = spawn(
    process.execPath,
    ['--conditions=pmx-source', '--import', 'tsx', new URL('./support/verify-only-server.ts', import.meta.url).pathname],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  try {
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`verify-only server exited with ${code}`)));
    });
    let next = 0;
    const result = await cannon({
      url,
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
    child.kill('SIGTERM');
  }
}

export type Api = (method: string, path: string, body?: unknown, admin?: boolean) => Promise<Json>;

export function apiOf(url: string): Api {
  return async (method, path, body, admin = false) => {
    const res = await fetch(`${url}${path}`, {
      method,
      body: body ? JSON.stringify(body) : undefined,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(admin ? { authorization: `Bearer ${ADMIN}` } : {}) },
    });
    const json = (await res.json()) as Json;
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}

/** A market and two funded traders (the seller holding YES), made by one all-roles process: the dev faucet needs the ledger in-process. */
async function setUp(api: Api): Promise<{ market: Json; buyer: Keypair; seller: Keypair }> {
  const conn = new Connection((await api('GET', '/v2/config')).data.rpcUrl as string, 'confirmed');
  const send = async (base64: string, signer: Keypair) => {
    const tx = VersionedTransaction.deserialize(Buffer.from(base64, 'base64'));
    tx.sign([signer]);
    const sig = await conn.sendRawTransaction(tx.serialize());
    for (;;) {
      const [s] = (await conn.getSignatureStatuses([sig])).value;
      if (s && s.confirmationStatus !== 'processed') return;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const market = (
    await api(
      'POST',
      '/v2/admin/clob/markets',
      {
        title: 'Bench market',
        description: 'x',
        resolutionRules: 'x',
        category: 'bench',
        endDate: new Date(Date.now() + 86_400_000).toISOString(),
        yesTicker: 'Y',
        noTicker: 'N',
      },
      true,
    )
  ).market as Json;
  const buyer = Keypair.generate();
  const seller = Keypair.generate();
  for (const t of [buyer, seller]) {
    await api('POST', '/v2/dev/faucet', { wallet: t.publicKey.toBase58(), usdc: '1000000000000', sol: '10000000000' });
    await send((await api('POST', '/v2/clob/account/deposit', { pubkey: t.publicKey.toBase58(), amount: '900000000000' })).transaction, t);
  }
  await waitForBalance(api, seller, (b) => b.smartWalletBalance === '900000000000'); // the deposit indexed
  await send(
    (await api('POST', '/v2/clob/account/split', { pubkey: seller.publicKey.toBase58(), marketId: market.id, amount: '500000000000' }))
      .transaction,
    seller,
  );
  await waitForYes(api, seller, '500000000000');
  return { market, buyer, seller };
}

async function waitForBalance(api: Api, owner: Keypair, done: (balances: Json) => boolean): Promise<void> {
  for (;;) {
    if (done(await api('GET', `/v2/clob/account/balances?pubkey=${owner.publicKey.toBase58()}`))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const waitForYes = (api: Api, owner: Keypair, amount: string) => waitForBalance(api, owner, (b) => b.markets[0]?.yesTokens === amount);

/** A fresh PostgreSQL database for the run (dropped after), or SQLite in the data dir. */
export async function benchDatabase(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (process.env.BENCH_CLOB_DB !== 'postgres') return { env: {}, drop: async () => undefined };
  const server = new URL(process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const name = `pmx_bench_${process.pid}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: server.toString() });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(server.toString());
  url.pathname = `/${name}`;
  return { env: { DATABASE_URL: url.toString() }, drop: () => admin(`drop database if exists ${name} with (force)`) };
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
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const dataDir = tempDir('pmx-bench-clob-');
  const database = { env: databaseEnv };
  const shared = {
    ADMIN_TOKEN: ADMIN,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_WRITE_PER_MIN: '1000000',
    RATE_LIMIT_READ_PER_MIN: '1000000',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: `bench-clob-${process.pid}`,
    LEDGER_RPC_PORT: String(await findFreePort()),
    ...database.env,
  };
  console.log(`  database: ${database.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}`);
  const setup = await spawnDaemon(dataDir, shared);
  let world: Awaited<ReturnType<typeof setUp>>;
  try {
    await waitForStatus(setup, '/v2/config', 200, 60_000);
    world = await setUp(apiOf(setup.url));
  } finally {
    setup.child.kill('SIGINT');
    await setup.exited;
  }
  const { market, buyer, seller } = world;
  const backend = await spawnDaemon(dataDir, { ...shared, ROLES: 'ledger,worker,indexer' });
  await waitForLedgerRpc(Number(shared.LEDGER_RPC_PORT), 60_000);
  const daemon = await spawnDaemon(
    dataDir,
    { ...shared, ROLES: 'api,matcher', RPC_URL: `http://127.0.0.1:${shared.LEDGER_RPC_PORT}` },
    profile,
  );
  try {
    await waitForStatus(daemon, '/v2/config', 200, 60_000);
    // The restarted processes index the wallets again before they accept orders against them.
    await waitForYes(apiOf(daemon.url), seller, '500000000000');

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

    if (PAUSE_BACKEND) backend.child.kill('SIGSTOP'); // resumed right after the load, before shutdown
    const verifyPerSec = verifyRate(samples, 3_000);
    let next = 0;
    const parties: Party[] = [
      { name: 'API + matcher', pid: daemon.child.pid! },
      { name: 'ledger + workers', pid: backend.child.pid! },
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
    if (PAUSE_BACKEND) backend.child.kill('SIGCONT');
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
      if (PAUSE_BACKEND) backend.child.kill('SIGSTOP');
      const floor = await verifyOnlyRate(bodies);
      if (PAUSE_BACKEND) backend.child.kill('SIGCONT');
      console.log(
        `  floor: a bare Fastify route that only verifies the same orders (no funds check, matching or persistence): ${Math.round(floor)} orders/s, ${(floor / baseline).toFixed(2)}× bare verification`,
      );
    }
    if (next > bodies.length)
      console.log(`  note: ${next - bodies.length} requests reused a signed body (DUPLICATE_NONCE refusals): raise the pre-signed count`);
  } finally {
    daemon.child.kill('SIGINT');
    backend.child.kill('SIGCONT'); // a paused backend, after a failed load, would never see its SIGINT
    backend.child.kill('SIGINT');
    await backend.exited;
    await daemon.exited;
  }
}
