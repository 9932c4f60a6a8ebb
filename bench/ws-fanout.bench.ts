/**
 * Family C WebSocket fan-out against a bare broadcaster, in the same run, on the same Redis:
 *
 * - the daemon in its own process (every role; HTTP_MAX_CONNECTIONS_PER_CLIENT=0) with 1,000
 *   sockets subscribed to one market;
 * - the baseline: a minimal `ws` server in its own process that subscribes to a Redis channel and
 *   sends each event to every socket (no subscriptions, sequencing, limits or slow-consumer checks),
 *   with 1,000 sockets.
 *
 * Phases: (1) fan-out throughput — book updates published on the bus as the matcher publishes them
 * (3 events per batch, at most 20 batches in flight), delivered messages/s and publish → delivery
 * p99 for both, ratios ours ÷ baseline; (2) real matches — orders through the API (a resting bid,
 * then a crossing order: trade, level and best-bid/ask events), p99 from the matcher's publish
 * after commit to delivery at all 1,000 sockets. Both phases print the daemon's event-loop lag
 * (from its /metrics). Memory per connection: ws-memory.bench.ts. Clients run in this process and
 * share the machine with both servers. `BENCH_WS_BATCHES` (default 400) sets phase 1's length.
 * Needs Redis at REDIS_URL (default 127.0.0.1:6379); keys use a unique prefix and are deleted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Connection, Keypair, VersionedTransaction } from '@solana/web3.js';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { ClobEventBus } from '../src/services/family-c/events/event-bus.js';
import { spawnDaemon, waitForStatus, type DaemonProcess } from '../test/daemon/daemon-process.js';
import { signedOrder } from '../test/family-c/family-c.harness.js';
import { tempDir } from '../test/helpers/databases.js';
import { deleteKeys, uniquePrefix } from '../test/helpers/redis.js';
import { formatMs, summarize } from './stats.js';
import { Fleet } from './support/ws-fleet.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SOCKETS = 1_000;
const BATCHES = Number(process.env.BENCH_WS_BATCHES ?? 400);
const WINDOW = 20;
const ADMIN = 'bench-ws-admin-token-0123456789';
const USDC = 1_000_000n;

const BASELINE = `
import { WebSocketServer } from 'ws';
import { Redis } from 'ioredis';
const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
const sub = new Redis(process.env.REDIS_URL);
sub.on('message', (_channel, raw) => {
  for (const e of JSON.parse(raw).events) { const frame = JSON.stringify(e); for (const c of wss.clients) c.send(frame); }
});
wss.on('connection', (s) => s.on('message', () => undefined));
await sub.subscribe(process.env.CHANNEL);
if (!wss.address()) await new Promise((r) => wss.once('listening', r));
console.log(JSON.stringify({ port: wss.address().port }));
`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Publishes BATCHES batches of 3 book events with `publish`, WINDOW in flight; returns messages/s and delays. */
async function throughput(fleet: Fleet, firstSeq: number, publish: (batch: number, seq: number) => Promise<void>) {
  fleet.received = 0;
  fleet.delays = [];
  fleet.sampling = true;
  const started = performance.now();
  let seq = firstSeq;
  for (let b = 0; b < BATCHES; b++) {
    await publish(b, seq);
    seq += 3;
    if (b >= WINDOW) await fleet.until(seq - 3 * WINDOW);
  }
  await fleet.until(seq - 1);
  const seconds = (performance.now() - started) / 1000;
  fleet.sampling = false;
  return { perSecond: fleet.received / seconds, delay: summarize(fleet.delays) };
}

function bookEvents(marketId: string, b: number) {
  const price = 3_000 + (b % 40) * 100;
  return [
    {
      event: 'trade' as const,
      marketId,
      trade: {
        id: `t${b}`,
        marketId,
        outcome: 'yes' as const,
        priceBps: price,
        quantity: '1000000',
        takerSide: 'buy' as const,
        fillType: 'direct',
        status: 'matched',
        matchedAt: new Date().toISOString(),
      },
    },
    { event: 'price_change' as const, marketId, outcome: 'yes' as const, side: 'buy' as const, price, size: String(1_000_000 * (b % 7)) },
    { event: 'best_bid_ask' as const, marketId, bestBid: { yes: price, no: null }, bestAsk: { yes: null, no: null } },
  ];
}

async function startBaseline(channel: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', BASELINE], {
    cwd: `${import.meta.dirname}/..`,
    env: { ...process.env, REDIS_URL, CHANNEL: channel },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(JSON.parse(d.toString()).port)));
  return { child, url: `ws://127.0.0.1:${port}` };
}

/** The daemon's event-loop lag since the previous scrape (prom-client resets its histogram on each). */
async function loopLag(base: string): Promise<{ p99: number; max: number }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const gauge = (name: string) => Number(new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  return { p99: gauge('nodejs_eventloop_lag_p99_seconds'), max: gauge('nodejs_eventloop_lag_max_seconds') };
}

async function call(base: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bench plumbing
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function setUpMarket(daemon: DaemonProcess) {
  const market = (
    await call(
      daemon.url,
      '/v2/admin/clob/markets',
      {
        title: 'Fan-out bench',
        description: 'WebSocket fan-out',
        resolutionRules: 'n/a',
        category: 'bench',
        endDate: new Date(Date.now() + 86_400_000).toISOString(),
        yesTicker: 'Y',
        noTicker: 'N',
      },
      { authorization: `Bearer ${ADMIN}` },
    )
  ).market as { id: string; marketPubkey: string };
  const rpc = new Connection(
    ((await (await fetch(`${daemon.url}/v2/config`)).json()) as { data: { rpcUrl: string } }).data.rpcUrl,
    'confirmed',
  );
  const traders = [Keypair.generate(), Keypair.generate()];
  for (const t of traders) {
    const pubkey = t.publicKey.toBase58();
    await call(daemon.url, '/v2/dev/faucet', { wallet: pubkey, usdc: String(1_000n * USDC), sol: '1000000000' });
    const tx = VersionedTransaction.deserialize(
      Buffer.from((await call(daemon.url, '/v2/clob/account/deposit', { pubkey, amount: String(900n * USDC) })).transaction, 'base64'),
    );
    tx.sign([t]);
    await rpc.confirmTransaction(await rpc.sendRawTransaction(tx.serialize()), 'confirmed');
    while (
      ((await (await fetch(`${daemon.url}/v2/clob/account/balances?pubkey=${pubkey}`)).json()) as { smartWalletBalance: string })
        .smartWalletBalance !== String(900n * USDC)
    )
      await sleep(50);
  }
  return { market, maker: traders[0]!, taker: traders[1]! };
}

export async function run(): Promise<void> {
  const prefix = uniquePrefix('bench-ws');
  const daemon = await spawnDaemon(tempDir('pmx-bench-ws-'), {
    REDIS_URL,
    QUEUE_PREFIX: prefix,
    ADMIN_TOKEN: ADMIN,
    LOG_LEVEL: 'warn',
    HTTP_MAX_CONNECTIONS_PER_CLIENT: '0',
    RATE_LIMIT_READ_PER_MIN: '1000000',
    RATE_LIMIT_WRITE_PER_MIN: '1000000',
    WS_IDLE_TIMEOUT_MS: '600000',
    INDEX_INTERVAL_MS: '600000',
  });
  const baseline = await startBaseline(`${prefix}:baseline`);
  const redis = new Redis(REDIS_URL);
  const fleets: Fleet[] = [];
  try {
    await waitForStatus(daemon, '/ready', 200, 90_000);
    const { market, maker, taker } = await setUpMarket(daemon);
    const wsBase = daemon.url.replace('http', 'ws');
    const ours = await Fleet.open(`${wsBase}/v2/ws/market`, SOCKETS, { type: 'subscribe', markets: [market.id] });
    const theirs = await Fleet.open(baseline.url, SOCKETS);
    fleets.push(ours, theirs);
    await ours.until(0);
    for (let i = 0; i < SOCKETS; i++) theirs.lastSeq[i] = 0;

    // (1) fan-out throughput, baseline first then ours, same batches.
    const bus = new ClobEventBus(redis, prefix, pino({ level: 'silent' }));
    const base = await throughput(theirs, 1, async (b, seq) => {
      const events = bookEvents(market.id, b).map((e, i) => ({ seq: seq + i, ...e, timestamp: Date.now() }));
      await redis.publish(`${prefix}:baseline`, JSON.stringify({ marketId: market.id, events }));
    });
    const first = Math.max(...ours.lastSeq) + 1;
    await loopLag(daemon.url);
    await sleep(3_000);
    const idle = await loopLag(daemon.url); // with 1,000 idle sockets, nothing published: the machine's own noise
    await loopLag(daemon.url);
    const mine = await throughput(ours, first, async (b) => {
      await bus.publishMarket(market.id, bookEvents(market.id, b));
    });
    const lag1 = await loopLag(daemon.url);
    console.log(`  fan-out to ${SOCKETS} sockets, ${BATCHES} batches of 3 book events (${WINDOW} in flight):`);
    const row = (name: string, r: typeof mine) =>
      console.log(
        `    ${name.padEnd(22)} ${Math.round(r.perSecond).toString().padStart(8)} msg/s  publish→delivery p50 ${formatMs(r.delay.p50)}  p99 ${formatMs(r.delay.p99)}`,
      );
    row('pmx hub', mine);
    row('bare ws broadcaster', base);
    console.log(
      `    ratio pmx ÷ bare: throughput ${(mine.perSecond / base.perSecond).toFixed(2)}×, p99 delay ${(mine.delay.p99 / Math.max(base.delay.p99, 1)).toFixed(2)}×`,
    );
    console.log(
      `    the daemon's event-loop lag meanwhile: p99 ${formatMs(lag1.p99)}, max ${formatMs(lag1.max)} (sends go out in ≤ 4 ms slices); idle before: p99 ${formatMs(idle.p99)}, max ${formatMs(idle.max)}`,
    );
    theirs.close();

    // (2) real matches through the API: the matcher publishes after each commit; delivery to all sockets.
    ours.delays = [];
    ours.sampling = true;
    await loopLag(daemon.url);
    const acks: number[] = [];
    for (let i = 0; i < 100; i++) {
      const t0 = performance.now();
      await call(
        daemon.url,
        '/v2/clob/orders',
        signedOrder(maker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 4_000 + (i % 10) * 10, quantity: USDC }),
      );
      await call(
        daemon.url,
        '/v2/clob/orders',
        signedOrder(taker, { market: market.marketPubkey, side: 'buy', outcome: 'no', priceBps: 6_100, quantity: USDC }),
      );
      acks.push(performance.now() - t0);
    }
    const last = Number(await redis.get(`${prefix}:clob:seq:${market.id}`));
    await ours.until(last);
    ours.sampling = false;
    const lag2 = await loopLag(daemon.url);
    const matched = summarize(ours.delays);
    console.log(`  100 matches through the API (bid, then a crossing order): publish after commit → delivery at ${SOCKETS} sockets`);
    console.log(
      `    p50 ${formatMs(matched.p50)}  p99 ${formatMs(matched.p99)}  max ${formatMs(matched.max)} (${matched.n} samples at 1 ms resolution); order pair round trip p50 ${formatMs(summarize(acks).p50)}`,
    );
    console.log(`    the daemon's event-loop lag meanwhile: p99 ${formatMs(lag2.p99)}, max ${formatMs(lag2.max)}`);
  } finally {
    for (const f of fleets) f.close();
    redis.disconnect();
    baseline.child.kill('SIGKILL');
    daemon.child.kill('SIGINT');
    await daemon.exited;
    await deleteKeys(prefix);
  }
}
