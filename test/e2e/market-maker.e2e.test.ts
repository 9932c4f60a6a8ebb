// Issue 30's end-to-end scenario. The real daemon in one child process; the market maker's bot
// (`npm run example:market-maker`, written with @pmx/client) in another: it quotes five levels on
// both outcomes in one batch, requotes with replace, arms the heartbeat and beats it. A taker
// written without the client (test/helpers/clob-client.ts: fetch, web3.js and node's crypto, from
// the docs) trades against it. Then the bot is killed with SIGKILL and its orders are cancelled
// by the dead-man's switch within the timeout; the price history shows the candles of the fills;
// a WebSocket book kept by @pmx/client's BookClient equals the REST book throughout.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { BookClient } from '@pmx/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReadyDaemon, type DaemonProcess } from '../daemon/daemon-process.js';
import { ClobClient } from '../helpers/clob-client.js';
import { tempDir } from '../helpers/databases.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

const bot = fileURLToPath(new URL('../../scripts/example-market-maker.ts', import.meta.url));
const ADMIN = 'market-maker-e2e-admin-token-0123456789';
const USDC = 1_000_000n;
const TIMEOUT_SEC = 5;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The bot's stdout, one JSON value per line, as an async queue. */
function lines(child: ChildProcess): () => Promise<Json> {
  const waiting: Array<(line: Json) => void> = [];
  const ready: Json[] = [];
  createInterface({ input: child.stdout! }).on('line', (text) => {
    const line = JSON.parse(text) as Json;
    const next = waiting.shift();
    if (next) next(line);
    else ready.push(line);
  });
  return () => (ready.length > 0 ? Promise.resolve(ready.shift()!) : new Promise((resolve) => waiting.push(resolve)));
}

describe('a market maker with @pmx/client, killed, and its dead-man switch (real daemon, bot and taker processes)', () => {
  let daemon: DaemonProcess;
  let client: ClobClient;
  let books: BookClient;
  let botProcess: ChildProcess | undefined;
  let botErr = '';
  const prefix = uniquePrefix('mm-e2e');
  beforeAll(async () => {
    daemon = await startReadyDaemon(
      tempDir('pmx-mm-e2e-'),
      { REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: prefix, ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'warn' },
      '/v2/config',
      60_000,
    );
    client = new ClobClient(daemon.url, ADMIN);
    books = new BookClient({ url: daemon.url });
  }, 200_000);
  afterAll(async () => {
    await books?.close();
    botProcess?.kill('SIGKILL');
    if (daemon && daemon.child.exitCode === null) {
      daemon.child.kill('SIGTERM');
      await daemon.exited;
    }
    await deleteKeys(prefix);
  });

  /**
   * Waits until the WebSocket book has caught up with the REST book's seq, then compares both
   * outcomes level by level. Settlement events move the seq on their own after a trade: the
   * comparison is made once two REST reads around the wait show one seq (one book).
   */
  async function expectBooksEqual(marketId: string): Promise<Json> {
    for (let attempt = 0; ; attempt++) {
      const rest = await client.ok('GET', `/v2/clob/markets/${marketId}/orderbook`);
      await books.waitForSeq(marketId, rest.seq as number);
      const again = await client.ok('GET', `/v2/clob/markets/${marketId}/orderbook`);
      if (again.seq !== rest.seq && attempt < 20) continue;
      expect(again.seq).toBe(rest.seq);
      for (const outcome of ['yes', 'no'] as const)
        expect(books.book(marketId, outcome)).toEqual({ bids: rest[outcome].bids, asks: rest[outcome].asks });
      return rest;
    }
  }

  it('quotes, requotes, trades, dies, and its orders are cancelled within the timeout', async () => {
    const market = await client.createMarket('Will the bot survive?', {
      description: 'The market of the market-maker end-to-end test.',
      resolutionRules: 'YES if it does.',
      category: 'tests',
      yesTicker: 'LIVE',
      noTicker: 'DEAD',
    });
    await books.subscribe([market.id]);

    // node itself, not the tsx CLI: that would run the script in a child process of its own, which SIGKILL would orphan.
    botProcess = spawn(process.execPath, ['--conditions=pmx-source', '--import', 'tsx', bot], {
      env: { ...process.env, API_URL: daemon.url, MARKET_ID: market.id, HEARTBEAT_TIMEOUT_SEC: String(TIMEOUT_SEC) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    botProcess.stderr!.on('data', (chunk: Buffer) => (botErr += chunk.toString()));
    const next = lines(botProcess);
    const quoted = (await Promise.race([
      next(),
      new Promise((_, reject) => botProcess!.once('exit', (code) => reject(new Error(`bot exited ${code}: ${botErr}`)))),
    ])) as Json;
    const { maker, orderIds } = quoted.quoted as { maker: string; orderIds: string[] };
    expect(orderIds).toHaveLength(10);

    // Five levels a side, the best YES bid requoted to 4100.
    const quotedBook = await expectBooksEqual(market.id);
    expect(quotedBook.yes.bids.map((l: Json) => l.price)).toEqual([4100, 3900, 3800, 3700, 3600]);
    expect(quotedBook.no.bids.map((l: Json) => l.price)).toEqual([3000, 2900, 2800, 2700, 2600]);

    // A taker buys NO at 5900 against the maker's YES bid at 4100 (a complementary fill: a pair minted), then YES at 7000 against the NO bid at 3000.
    const taker = await client.fundedTrader(50n * USDC);
    const takeNo = await client.place(taker, { market: market.marketPubkey, side: 'buy', outcome: 'no', priceBps: 5900, quantity: USDC });
    const takeYes = await client.place(taker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 7000, quantity: USDC });
    for (const r of [takeNo, takeYes]) expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(takeNo.json.fills).toMatchObject([{ fillType: 'complementary', quantity: String(USDC), priceBps: 5900 }]);
    expect(takeYes.json.fills).toMatchObject([{ fillType: 'complementary', quantity: String(USDC), priceBps: 7000 }]);
    const traded = await expectBooksEqual(market.id);
    expect(traded.yes.bids[0]).toMatchObject({ price: 4100, size: String(USDC) }); // 2 tokens, 1 filled
    expect(traded.no.bids[0]).toMatchObject({ price: 3000, size: String(USDC) });

    // The price history: one 1-minute candle per outcome with the taker's fills.
    const candles = async (outcome: string) =>
      (await client.ok('GET', `/v2/clob/markets/${market.id}/prices-history?outcome=${outcome}&interval=1m`)).candles as Json[];
    const yes = await client.waitFor('YES candle', async () => ((await candles('yes')).length > 0 ? candles('yes') : undefined));
    const no = await client.waitFor('NO candle', async () => ((await candles('no')).length > 0 ? candles('no') : undefined));
    expect(yes.reduce((s, c) => s + BigInt(c.volume), 0n)).toBe(2n * USDC); // the YES sides of both fills
    expect(no.reduce((s, c) => s + BigInt(c.volume), 0n)).toBe(2n * USDC);
    expect(yes.at(-1)).toMatchObject({ close: 7000 });

    // The bot dies without a word. Its last heartbeat was at most now.
    await next(); // one beat after the trades: the switch is beaten while the bot lives
    const killedAt = Date.now();
    botProcess.kill('SIGKILL');
    const cancelled = await client
      .waitFor(
        'the switch to cancel every resting quote',
        async () => {
          const { orders } = await client.ok('GET', `/v2/clob/orders?pubkey=${maker}&marketId=${market.id}&status=cancelled`);
          const quotes = (orders as Json[]).filter((o) => orderIds.includes(o.id as string)); // not the order replaced earlier
          return quotes.length === orderIds.length ? quotes : undefined;
        },
        (TIMEOUT_SEC + 10) * 1000,
      )
      .catch(async (error: Error) => {
        const all = await client.ok('GET', `/v2/clob/orders?pubkey=${maker}&marketId=${market.id}`);
        throw new Error(`${error.message}: ${JSON.stringify(all.orders.map((o: Json) => [o.id, o.status, o.cancelReason]))}`);
      });
    for (const order of cancelled) {
      expect(order.cancelReason).toBe('heartbeat_expired');
      // Within the timeout of the last beat (≤ the kill), plus the sweep's 1 s period and a second of the clock's rounding.
      expect(Date.parse(order.updatedAt as string)).toBeLessThanOrEqual(killedAt + (TIMEOUT_SEC + 2) * 1000);
    }
    const open = await client.ok('GET', `/v2/clob/orders?pubkey=${maker}&marketId=${market.id}&status=open`);
    expect(open.orders).toEqual([]);
    const empty = await expectBooksEqual(market.id);
    expect([...empty.yes.bids, ...empty.no.bids]).toEqual([]);
  }, 180_000);
});
