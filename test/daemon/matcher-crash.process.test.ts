/**
 * The matcher killed (`kill -9`) at random points while orders stream in: after each restart no
 * acknowledged order or fill is lost, none is duplicated, every order's remaining quantity equals
 * its quantity minus its fills, and the book served equals the resting orders the database holds.
 */
import type { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClobClient } from '../helpers/clob-client.js';
import { tempDir } from '../helpers/databases.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { startReadyDaemon, type DaemonProcess } from './daemon-process.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const ADMIN = 'matcher-crash-admin-token-0123456789';
const USDC = 1_000_000n;

describe('matcher crash (kill -9 between acceptance and acknowledgement)', () => {
  const prefix = uniquePrefix('matcher-crash');
  const dataDir = tempDir('pmx-matcher-crash-');
  let daemon: DaemonProcess;
  const start = async (): Promise<ClobClient> => {
    daemon = await startReadyDaemon(
      dataDir,
      {
        REDIS_URL: TEST_REDIS_URL,
        QUEUE_PREFIX: prefix,
        ADMIN_TOKEN: ADMIN,
        LOG_LEVEL: 'warn',
        RATE_LIMIT_WRITE_PER_MIN: '1000000',
        RATE_LIMIT_READ_PER_MIN: '1000000',
      },
      '/v2/config',
      60_000,
    ); // a limit for a loaded machine, not a target
    return new ClobClient(daemon.url, ADMIN);
  };
  beforeAll(async () => {
    await start();
  }, 120_000);
  afterAll(async () => {
    if (daemon && daemon.child.exitCode === null) {
      daemon.child.kill('SIGKILL');
      await daemon.exited;
    }
    await deleteKeys(prefix);
  });

  it('loses and duplicates nothing acknowledged across five crashes', async () => {
    let client = new ClobClient(daemon.url, ADMIN);
    // Orders of 0.1-0.3 token: many fills from the traders' funds.
    const market = await client.createMarket('Crash market', { minOrderSize: '100000' });
    const traders: Keypair[] = [await client.fundedTrader(500n * USDC), await client.fundedTrader(500n * USDC)];
    for (const t of traders) {
      await client.write(
        '/v2/clob/account/split',
        { pubkey: t.publicKey.toBase58(), marketId: market.id, amount: (100n * USDC).toString() },
        t,
      );
    }
    await client.waitFor('splits indexed', async () => {
      for (const t of traders) if ((await client.balances(t)).markets[0]?.noTokens !== '100000000') return undefined;
      return true;
    });

    const acked = new Map<string, Json>();
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 5; round++) {
      let firstAck: () => void = () => undefined;
      const acknowledged = new Promise<void>((resolve) => (firstAck = resolve));
      const burst = Array.from({ length: 40 }, (_, i) => {
        const owner = traders[i % 2]!;
        const side = rand(2) === 0 ? 'buy' : 'sell';
        return client
          .place(owner, {
            market: market.marketPubkey,
            side,
            outcome: rand(2) === 0 ? 'yes' : 'no',
            priceBps: 4500 + rand(10) * 100,
            quantity: BigInt(1 + rand(3)) * 100_000n,
          })
          .then(
            (r) => {
              if (r.status === 200) {
                acked.set(r.json.orderId as string, r.json);
                firstAck();
              }
              return r.status;
            },
            () => 'lost',
          );
      });
      // Kill at a random point after the first acknowledgement: some answered, some in flight.
      await acknowledged;
      await new Promise((r) => setTimeout(r, rand(25)));
      daemon.child.kill('SIGKILL');
      await daemon.exited;
      const outcomes = await Promise.all(burst);
      console.log(
        `round ${round}: ${outcomes.filter((s) => s === 200).length} acknowledged, ${outcomes.filter((s) => s === 'lost').length} lost in flight, ${outcomes.filter((s) => typeof s === 'number' && s !== 200).length} refused`,
      );
      expect(outcomes.every((s) => s === 200 || s === 'lost' || (typeof s === 'number' && s >= 400 && s < 500) || s === 503)).toBe(true);
      client = await start();
      await client.waitFor(
        'the restarted matcher serves the market',
        async () => {
          const r = await client.call('GET', `/v2/clob/markets/${market.id}/orderbook`);
          return r.status === 200 && r.json.seq !== null ? true : undefined;
        },
        20_000,
      );
    }

    // Everything the database holds, through the API.
    const orders = new Map<string, Json>();
    for (const t of traders) {
      let cursor: string | null = null;
      do {
        const page: Json = await client.ok(
          'GET',
          `/v2/clob/orders?pubkey=${t.publicKey.toBase58()}&limit=200${cursor ? `&cursor=${cursor}` : ''}`,
        );
        for (const o of page.orders) orders.set(o.id, o);
        cursor = page.nextCursor;
      } while (cursor);
    }
    const trades: Json[] = [];
    for (let cursor: string | null = null; ;) {
      const page: Json = await client.ok('GET', `/v2/clob/markets/${market.id}/trades?limit=200${cursor ? `&cursor=${cursor}` : ''}`);
      trades.push(...page.trades);
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    expect(new Set(trades.map((t) => t.id)).size).toBe(trades.length);

    // No acknowledged order or fill lost.
    expect(acked.size).toBeGreaterThan(0);
    const tradeIds = new Set(trades.map((t) => t.id));
    for (const [id, ack] of acked) {
      expect(orders.has(id), `acknowledged order ${id} lost`).toBe(true);
      for (const f of ack.fills as Json[]) expect(tradeIds.has(f.id), `acknowledged fill ${f.id} lost`).toBe(true);
    }
    // Each order's remaining = quantity − what its fills took.
    const filled = new Map<string, bigint>();
    for (const t of trades) for (const id of [t.makerOrderId, t.takerOrderId]) filled.set(id, (filled.get(id) ?? 0n) + BigInt(t.quantity));
    for (const o of orders.values()) {
      if (o.status === 'cancelled') continue;
      expect(BigInt(o.originalQuantity) - BigInt(o.remainingQuantity), `order ${o.id}`).toBe(filled.get(o.id) ?? 0n);
    }
    // The served book is exactly the resting orders.
    const expected: Record<string, Record<string, Map<number, bigint>>> = {
      yes: { bids: new Map(), asks: new Map() },
      no: { bids: new Map(), asks: new Map() },
    };
    for (const o of orders.values()) {
      if (o.status !== 'open' && o.status !== 'partially_filled') continue;
      const side = expected[o.outcome]![o.side === 'buy' ? 'bids' : 'asks']!;
      side.set(o.priceBps, (side.get(o.priceBps) ?? 0n) + BigInt(o.remainingQuantity));
    }
    const book = await client.ok('GET', `/v2/clob/markets/${market.id}/orderbook`);
    for (const outcome of ['yes', 'no']) {
      for (const side of ['bids', 'asks']) {
        const served = new Map((book[outcome][side] as Json[]).map((l) => [l.price as number, BigInt(l.size)]));
        expect(served, `${outcome} ${side}`).toEqual(expected[outcome]![side]);
      }
    }
  }, 300_000); // five restarts: a limit for a loaded machine (it took 180 s there), not a target
});
