/**
 * Issue 31's markets-at-scale rows: memory per orderbook market and the time a restarted matcher
 * takes to reclaim them, as markets grow. The whole daemon in this process (every role, SQLite,
 * the embedded cluster), `BENCH_SCALE_MARKETS` markets (default 200), each with a resting bid on
 * both outcomes; then the daemon stops (releasing its leases) and a new one starts on the same
 * data and Redis prefix, and the bench reads from its log when its matcher owned the first and
 * the last market. Memory is the process's heap and external (Buffer) growth per market after a
 * full collection (run with --expose-gc, as `npm run bench` does not: the figures are then
 * without a forced collection and noisier). `BENCH_SCALE_DB=postgres` runs it on PostgreSQL.
 */
import { Writable } from 'node:stream';
import type { Keypair } from '@solana/web3.js';
import { pino } from 'pino';
import { loadConfig } from '../config/config.js';
import { startDaemon, type Daemon } from '../src/daemon.js';
import { createClobMarket, depositedTrader, signedOrder, USDC, type CHarness } from '../test/family-c/family-c.harness.js';
import { TEST_ADMIN_TOKEN } from '../test/helpers/app.js';
import { tempDir } from '../test/helpers/databases.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../test/helpers/redis.js';
import { freshPostgresDatabase } from './support/bench-postgres.js';
import { emitRow, ownMemory } from './support/bench-rows.js';

const MARKETS = Number(process.env.BENCH_SCALE_MARKETS ?? 200);
const MARKETS_PER_MAKER = 200;
/** BENCH_SCALE_DB=postgres runs the daemon on a fresh PostgreSQL database of its own. */
const ON_POSTGRES = process.env.BENCH_SCALE_DB === 'postgres';

/** When each market was owned, read from the daemon's own log line ('matcher owns market'). */
function ownershipLog(): { stream: Writable; owned: number[] } {
  const owned: number[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line.includes('"matcher owns market"')) owned.push((JSON.parse(line) as { time: number }).time);
      done();
    },
  });
  return { stream, owned };
}

function memory(): { heap: number; external: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, external: m.external };
}

export async function run(): Promise<void> {
  const postgres = ON_POSTGRES ? await freshPostgresDatabase('scale') : undefined;
  try {
    await measure(postgres ? { DATABASE_URL: postgres.url } : {});
  } finally {
    await postgres?.drop();
  }
}

async function measure(databaseEnv: Record<string, string>): Promise<void> {
  const prefix = uniquePrefix('bench-scale');
  const config = loadConfig({
    DATA_DIR: tempDir('pmx-bench-scale-'),
    PORT: '0',
    HOST: '127.0.0.1',
    LEDGER_RPC_PORT: '0',
    REDIS_URL: process.env.REDIS_URL ?? TEST_REDIS_URL,
    QUEUE_PREFIX: prefix,
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    RATE_LIMIT_READ_PER_MIN: '1000000',
    RATE_LIMIT_WRITE_PER_MIN: '1000000',
    INDEX_INTERVAL_MS: '600000',
    ...databaseEnv,
  });
  let daemon: Daemon | undefined = await startDaemon(config, pino({ level: 'silent' }));
  try {
    const h = { daemon, app: daemon.app!, ledger: daemon.chain.ledger!, usdcMint: daemon.chain.usdcMint, prefix } as CHarness;
    // One maker per 200 markets: an owner may rest at most 500 orders (two per market here).
    const makers: Keypair[] = [];
    for (let i = 0; i < Math.ceil(MARKETS / MARKETS_PER_MAKER); i++)
      makers.push(await depositedTrader(h, BigInt(MARKETS_PER_MAKER) * 2n * USDC));
    await createClobMarket(h); // the first market's one-time costs stay out of the per-market figures
    const before = memory();
    for (let i = 0; i < MARKETS; i++) {
      const market = await createClobMarket(h);
      const orders = (['yes', 'no'] as const).map((outcome) =>
        signedOrder(makers[Math.floor(i / MARKETS_PER_MAKER)]!, {
          market: market.marketPubkey,
          side: 'buy',
          outcome,
          priceBps: 4000,
          quantity: USDC,
        }),
      );
      const res = await h.app.inject({ method: 'POST', url: '/v2/clob/orders/batch', payload: { orders } });
      if (res.statusCode !== 200 || res.body.includes('"error"')) throw new Error(`quotes refused: ${res.body}`);
    }
    const after = memory();
    const kb = (bytes: number) => `${(bytes / 1024 / MARKETS).toFixed(1)} kB`;
    console.log(
      `  ${MARKETS} markets with a resting bid per outcome: per market heap ${kb(after.heap - before.heap)}, external ${kb(after.external - before.external)}` +
        `${(globalThis as { gc?: unknown }).gc ? '' : ' (no --expose-gc: without a forced collection)'}`,
    );
    const perMarketMb = (after.heap + after.external - before.heap - before.external) / MARKETS / 2 ** 20;
    emitRow({
      bench: 'clob-markets-scale',
      row: `memory per market (${MARKETS} markets, a bid per outcome)`,
      value: `${(perMarketMb * 1024).toFixed(0)} kB heap + external`,
      goal: '< 0.33 MB',
      met: perMarketMb < 0.33,
      ...ownMemory(),
    });

    await daemon.stop();
    daemon = undefined;
    const log = ownershipLog();
    const started = Date.now();
    daemon = await startDaemon(config, pino({ level: 'info' }, log.stream));
    const deadline = Date.now() + 600_000;
    while (log.owned.length < MARKETS + 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    if (log.owned.length < MARKETS + 1) throw new Error(`the restarted matcher owned ${log.owned.length} of ${MARKETS + 1} markets`);
    const first = Math.min(...log.owned);
    const last = Math.max(...log.owned);
    console.log(
      `  restart: the matcher owned ${MARKETS + 1} markets from ${first - started} ms after start to ${last - started} ms: ` +
        `${((last - first) / MARKETS).toFixed(2)} ms per market`,
    );
    const perMarketMs = (last - first) / MARKETS;
    emitRow({
      bench: 'clob-markets-scale',
      row: `restart reclaim per market (${MARKETS + 1} markets)`,
      value: `${perMarketMs.toFixed(2)} ms`,
      goal: '< 6 ms (flat)',
      met: perMarketMs < 6,
      ...ownMemory(),
    });
  } finally {
    await daemon?.stop();
    await deleteKeys(prefix);
  }
}
