/**
 * Issue 25 part 6's bench row: does a wide book make placement slower? Two markets in one
 * all-roles daemon (embedded cluster, SQLite or, with `BENCH_CLOB_DB=postgres`, PostgreSQL, a
 * private Redis prefix) each rest 20,000 one-token orders from 200 funded wallets (100 per wallet
 * and market, the per-market limit): the wide market over 12,499 price levels (YES bids 1–5000,
 * NO bids 1–3999, YES asks 6500–9999), the narrow one over 40. The resting orders are signed by
 * their owners and written to the orders table as the matcher writes a resting order, with the
 * daemon stopped; it rebuilds both books when it starts again (placing 40,000 orders through HTTP
 * took minutes on the shared machine, before any measurement). Then the same load goes into each
 * in turn (interleaved rounds, so the load other processes put on this shared machine falls on
 * both alike): a buyer and a seller alternating YES orders at 6000, which cross each other and
 * nothing that rests, so the resting book keeps its width. It prints orders/s of each, the ratio
 * wide / narrow (goal ≥ 0.8×) and the daemon's resident memory around each round (flat: a wide
 * book must cost no memory per order). `BENCH_WIDE_SECONDS` (default 8) per round,
 * `BENCH_WIDE_ROUNDS` (default 2) rounds of both, `BENCH_CLOB_CONNECTIONS` (default 20).
 */
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Connection, Keypair } from '@solana/web3.js';
import { findFreePort } from '../src/infra/free-port.js';
import { openDatabase } from '../db/database.js';
import { insertOrders } from '../db/repositories/clob-orders.repository.js';
import { restingCommitment } from '../src/domain/orderbook/index.js';
import { spawnDaemon, waitForStatus, type DaemonProcess } from '../test/daemon/daemon-process.js';
import { tempDir } from '../test/helpers/databases.js';
import { apiOf, benchDatabase, createBenchMarket, signAndConfirm, type Api } from './support/clob-world.js';
import { cannon, interleaved, rateOf, type Rate } from './support/cannon.js';
import { daemonMemory, emitRow } from './support/bench-rows.js';
import { askPrice, bidPrice, body, signed, TOKEN } from './support/wide-book-orders.js';

const SECONDS = Number(process.env.BENCH_WIDE_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_WIDE_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CLOB_CONNECTIONS ?? 20);
const ADMIN = 'bench-clob-admin-token-0123456789'; // the token apiOf sends
const BID_WALLETS = 160;
const ASK_WALLETS = 40;
const PER_WALLET = 100;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function pool<T>(items: readonly T[], width: number, each: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await each(items[next++]!);
    }),
  );
}

/** Funds a wallet: faucet, a deposit, and `split` USDC split into YES+NO of each market. */
async function fund(api: Api, conn: Connection, t: Keypair, deposit: bigint, markets: Json[], split: bigint): Promise<void> {
  const send = (base64: string) => signAndConfirm(conn, base64, t);
  const pubkey = t.publicKey.toBase58();
  const until = async (done: (b: Json) => boolean) => {
    while (!done(await api('GET', `/v2/clob/account/balances?pubkey=${pubkey}`))) await new Promise((r) => setTimeout(r, 100));
  };
  await api('POST', '/v2/dev/faucet', { wallet: pubkey, usdc: (deposit + 1_000_000n).toString(), sol: '1000000000' });
  await send((await api('POST', '/v2/clob/account/deposit', { pubkey, amount: deposit.toString() })).transaction);
  await until((b) => b.smartWalletBalance === deposit.toString());
  if (split === 0n) return;
  for (const m of markets)
    await send((await api('POST', '/v2/clob/account/split', { pubkey, marketId: m.id, amount: split.toString() })).transaction);
  await until((b) => markets.every((m) => (b.markets as Json[]).some((x) => x.marketId === m.id && x.yesTokens === split.toString())));
}

/** Resident memory of a process, in MB. */
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

export async function run(): Promise<void> {
  const database = await benchDatabase();
  try {
    await measure(database.env);
  } finally {
    await database.drop();
  }
}

async function measure(databaseEnv: Record<string, string>): Promise<void> {
  const dataDir = tempDir('pmx-bench-wide-');
  console.log(`  database: ${databaseEnv.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}`);
  const env = {
    ADMIN_TOKEN: ADMIN,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_WRITE_PER_MIN: '1000000',
    RATE_LIMIT_READ_PER_MIN: '1000000',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: `bench-wide-${process.pid}`,
    LEDGER_RPC_PORT: String(await findFreePort()),
    ...databaseEnv,
  };
  const start = async () => {
    const d = await spawnDaemon(dataDir, env);
    await waitForStatus(d, '/v2/config', 200, 90_000);
    return d;
  };
  const stop = async (d: DaemonProcess) => {
    d.child.kill('SIGINT');
    await d.exited;
  };
  let daemon = await start();
  try {
    let api = apiOf(daemon.url);
    const conn = new Connection((await api('GET', '/v2/config')).data.rpcUrl as string, 'confirmed');
    const wide = await createBenchMarket(api, 'Wide book');
    const narrow = await createBenchMarket(api, 'Narrow book');
    const bidders = Array.from({ length: BID_WALLETS }, () => Keypair.generate());
    const askers = Array.from({ length: ASK_WALLETS }, () => Keypair.generate());
    const buyer = Keypair.generate();
    const seller = Keypair.generate();
    let started = performance.now();
    await pool(
      [
        ...bidders.map((t) => [t, 200n, 0n] as const),
        ...askers.map((t) => [t, 250n, 100n] as const),
        [buyer, 20_000n, 0n] as const,
        [seller, 20_000n, 8_000n] as const,
      ],
      16,
      ([t, deposit, split]) => fund(api, conn, t, deposit * TOKEN, [wide, narrow], split * TOKEN),
    );
    console.log(`  ${BID_WALLETS + ASK_WALLETS + 2} wallets funded in ${((performance.now() - started) / 1000).toFixed(0)} s`);

    // The resting books: signed orders written as the matcher writes resting ones, daemon stopped.
    started = performance.now();
    const expiry = BigInt(Math.floor(Date.now() / 1000) + 3 * 3600);
    const now = new Date().toISOString();
    const rows = (m: Json, isWide: boolean) =>
      [
        ...bidders.flatMap((owner, w) =>
          Array.from({ length: PER_WALLET }, (_, i) => ({
            owner,
            side: 'buy' as const,
            ...bidPrice(isWide, w * PER_WALLET + i),
            nonce: BigInt((isWide ? 0 : 1_000) + i + 1),
          })),
        ),
        ...askers.flatMap((owner, w) =>
          Array.from({ length: PER_WALLET }, (_, i) => ({
            owner,
            side: 'sell' as const,
            outcome: 'yes' as const,
            priceBps: askPrice(isWide, w * PER_WALLET + i),
            nonce: BigInt((isWide ? 0 : 1_000) + i + 1),
          })),
        ),
      ].map((o, seq) => {
        const { bytes, signature } = signed(m.marketPubkey as string, o, expiry);
        return {
          id: randomUUID(),
          market_id: m.id as string,
          owner: o.owner.publicKey.toBase58(),
          side: o.side,
          outcome: o.outcome,
          price_bps: o.priceBps,
          quantity: TOKEN,
          remaining: TOKEN,
          status: 'open' as const,
          order_type: 'limit' as const,
          time_in_force: 'gtc' as const,
          post_only: 0,
          nonce: o.nonce.toString(),
          expiry,
          message: Buffer.from(bytes).toString('hex'),
          signature,
          seq: BigInt(seq + 1),
          notional: 0n,
          usdc: 0n,
          committed: restingCommitment(o.side, o.priceBps, TOKEN),
          cancel_reason: null,
          created_at: now,
          updated_at: now,
        };
      });
    await stop(daemon);
    const database = openDatabase(databaseEnv.DATABASE_URL, dataDir);
    try {
      for (const [m, isWide] of [
        [wide, true],
        [narrow, false],
      ] as const)
        await insertOrders(database.db, rows(m, isWide));
    } finally {
      await database.close();
    }
    daemon = await start();
    api = apiOf(daemon.url);
    const depth = async (m: Json) => {
      const b = (await api('GET', `/v2/clob/markets/${m.id}/orderbook?depth=10000`)) as Json;
      return ['yes', 'no'].reduce((n, o) => n + (b[o].bids.length as number) + (b[o].asks.length as number), 0);
    };
    // The restarted daemon owns both books and has indexed the traders again before it takes orders.
    while ((await depth(wide)) === 0 || (await depth(narrow)) === 0) await new Promise((r) => setTimeout(r, 200));
    for (const t of [buyer, seller]) {
      const pubkey = t.publicKey.toBase58();
      while (((await api('GET', `/v2/clob/account/balances?pubkey=${pubkey}`)).smartWalletBalance as string) === '0')
        await new Promise((r) => setTimeout(r, 200));
    }
    console.log(
      `  40,000 resting orders written and loaded in ${((performance.now() - started) / 1000).toFixed(0)} s: wide book ${await depth(wide)} levels, narrow ${await depth(narrow)}`,
    );
    // The load: pre-signed YES orders at 6000, buyer and seller alternating.
    const loadBodies = (m: Json, base: number) =>
      Array.from({ length: Math.ceil(SECONDS * ROUNDS * 2_000) }, (_, i) =>
        body(
          m.marketPubkey as string,
          {
            owner: i % 2 === 0 ? buyer : seller,
            side: i % 2 === 0 ? 'buy' : 'sell',
            outcome: 'yes',
            priceBps: 6_000,
            nonce: BigInt(base + i),
          },
          expiry,
        ),
      );
    const loads = new Map<Json, { bodies: string[]; next: number }>([
      [wide, { bodies: loadBodies(wide, 1), next: 0 }],
      [narrow, { bodies: loadBodies(narrow, 10_000_000), next: 0 }],
    ]);
    const memory: string[] = [];
    const round = async (m: Json): Promise<Rate & { placed: number }> => {
      const load = loads.get(m)!;
      const before = rssMb(daemon.child.pid!);
      const r = await cannon({
        url: daemon.url,
        connections: CONNECTIONS,
        duration: SECONDS,
        requests: [
          {
            method: 'POST',
            path: '/v2/clob/orders',
            headers: { 'content-type': 'application/json' },
            setupRequest: (req) => ({ ...req, body: load.bodies[load.next++ % load.bodies.length] }),
          },
        ],
      });
      memory.push(
        `${m === wide ? 'wide' : 'narrow'} ${before.toFixed(0)}→${rssMb(daemon.child.pid!).toFixed(0)} MB over ${r['2xx']} orders`,
      );
      return { ...rateOf(r), placed: r['2xx'] / SECONDS };
    };
    const result = await interleaved(
      ROUNDS,
      () => round(wide),
      () => round(narrow),
      (w, n) => w.placed / n.placed,
    );
    const line = (name: string, rs: Array<Rate & { placed: number }>) =>
      `  ${name}: ${rs.map((r) => `${Math.round(r.placed)} orders/s (p50 ${r.p50} ms, p99 ${r.p99} ms${r.failures > 0 ? `, ${r.failures} not 2xx` : ''})`).join('; ')}`;
    console.log(line(`into 20,000 resting orders over ${await depth(wide)} levels`, result.ours));
    console.log(line(`into 20,000 resting orders over ${await depth(narrow)} levels`, result.baseline));
    console.log(`  ratio wide / narrow ${result.ratio.toFixed(2)}× (median of ${ROUNDS} rounds; goal ≥ 0.8×)`);
    console.log(`  daemon resident memory per round: ${memory.join('; ')}`);
    emitRow({
      bench: 'clob-wide-book',
      row: `placement into 20,000 resting orders: ${await depth(wide)} levels vs ${await depth(narrow)}`,
      value: `${result.ratio.toFixed(2)}× (${Math.round(result.ours.at(-1)!.placed)} orders/s)`,
      goal: '≥ 0.8×',
      met: result.ratio >= 0.8,
      ...(await daemonMemory(daemon.child.pid!, daemon.url)),
    });
  } finally {
    await stop(daemon);
  }
}
