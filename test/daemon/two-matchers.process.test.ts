/**
 * Two matcher processes on shared Redis and PostgreSQL split the orderbook markets between them
 * (rendezvous hashing of the market leases); each API node reaches the owner of any market (its
 * own matcher in-process, the other through its job queue); when one matcher dies, the other
 * takes its markets over with their books intact. The Nodes view of either API node shows both
 * matchers, the markets each owns and both matcher queues, then the dead one as gone.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { matcherQueueName } from '../../jobs/matcher-queue.js';
import { findFreePortPair } from '../../src/infra/free-port.js';
import { ClobClient } from '../helpers/clob-client.js';
import { PG_AVAILABLE, POSTGRES_URL, tempDir } from '../helpers/databases.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { startReadyDaemon, within, type DaemonProcess } from './daemon-process.js';

const ADMIN = 'two-matchers-admin-token-0123456789';
const USDC = 1_000_000n;
const started: DaemonProcess[] = [];
const prefix = uniquePrefix('two-matchers');
const schema = `t_${randomBytes(6).toString('hex')}`;

afterAll(async () => {
  for (const d of started) if (d.child.exitCode === null) d.child.kill('SIGKILL');
  await Promise.all(started.map((d) => d.exited));
  await deleteKeys(prefix);
  if (PG_AVAILABLE) {
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  }
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** GET /v2/admin/nodes through one API node. */
const nodesView = async (client: ClobClient): Promise<Json> =>
  (await client.ok('GET', '/v2/admin/nodes', undefined, { authorization: `Bearer ${ADMIN}` })).data;

async function leaseHolders(redis: Redis, marketIds: string[]): Promise<Map<string, string | null>> {
  const values = await Promise.all(marketIds.map((id) => redis.get(`${prefix}:clob:lease:${id}`)));
  return new Map(marketIds.map((id, i) => [id, values[i] ?? null]));
}

describe.skipIf(!PG_AVAILABLE)('two matchers on PostgreSQL', () => {
  it("split the markets, serve each other's orders and take over a dead one's markets", async () => {
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const db = new URL(POSTGRES_URL);
    db.searchParams.set('options', `-c search_path=${schema}`);
    const ledgerPort = await findFreePortPair();
    const dataDir = tempDir('pmx-two-matchers-');
    const shared = {
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: prefix,
      DATABASE_URL: db.toString(),
      ADMIN_TOKEN: ADMIN,
      LEDGER_RPC_PORT: String(ledgerPort),
      CLOB_MATCHER_LEASE_MS: '2000',
      HEARTBEAT_INTERVAL_MS: '1000',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_WRITE_PER_MIN: '1000000',
      RATE_LIMIT_READ_PER_MIN: '1000000',
    };
    const one = await startReadyDaemon(dataDir, { ...shared, ROLES: 'ledger,worker,indexer,api,matcher' }, '/v2/config', 60_000);
    started.push(one);
    const two = await startReadyDaemon(
      dataDir,
      { ...shared, ROLES: 'api,matcher', RPC_URL: `http://127.0.0.1:${ledgerPort}` },
      '/v2/config',
      60_000,
    );
    started.push(two);
    const c1 = new ClobClient(one.url, ADMIN);
    const c2 = new ClobClient(two.url, ADMIN);

    const markets = [];
    for (let i = 0; i < 10; i++) {
      markets.push(await c1.createMarket(`Split market ${i}`, { category: 'split' }));
    }
    const ids = markets.map((m) => m.id as string);
    const redis = new Redis(TEST_REDIS_URL);
    try {
      const holders = await c1.waitFor(
        'both matchers hold leases',
        async () => {
          const h = await leaseHolders(redis, ids);
          const nodes = new Set(h.values());
          return !nodes.has(null) && nodes.size === 2 ? h : undefined;
        },
        20_000,
      );
      const byNode = new Map<string, string[]>();
      for (const [id, node] of holders) byNode.set(node!, [...(byNode.get(node!) ?? []), id]);
      expect([...byNode.values()].every((list) => list.length >= 1)).toBe(true);

      // Either API node shows both matchers with the markets each owns, and both matcher queues.
      // (A process busy taking its markets may miss Redis's 1 s command timeout once: the view then
      // names the part it could not read; wait for a whole one.)
      const view = await c2.waitFor('a whole Nodes view', async () => {
        const v = await nodesView(c2);
        return v.unavailable.length === 0 ? v : undefined;
      });
      for (const [node, owned] of byNode) {
        const shown = (view.nodes as Json[]).find((n) => n.nodeId === node);
        expect(shown, node).toMatchObject({ gone: false, roles: expect.arrayContaining(['matcher']) });
        expect((shown!.markets as Json[]).map((m) => m.marketId).sort()).toEqual([...owned].sort());
        expect((view.queues as Json[]).map((q) => q.queue)).toContain(matcherQueueName(node));
      }

      // Resting orders through the OTHER node's API on every market: each reaches the market's owner.
      const maker = await c1.fundedTrader(200n * USDC);
      for (const m of markets) {
        const r = await c2.place(maker, { market: m.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 1000, quantity: 5n * USDC });
        expect(r.status, JSON.stringify(r.json)).toBe(200);
        expect(r.json.status).toBe('open');
      }
      // Instance ids are host:port:roles:pid:random.
      const twoNode = [...byNode.keys()].find((node) => node.split(':')[3] === String(two.child.pid))!;
      const twosMarkets = byNode.get(twoNode)!;
      expect(twosMarkets.length).toBeGreaterThan(0);

      // The second matcher dies: the first takes its markets over, books intact.
      two.child.kill('SIGKILL');
      await within(two.exited, 30_000, 'matcher two exit');
      await c1.waitFor(
        'matcher one holds every lease',
        async () => {
          const h = await leaseHolders(redis, ids);
          return [...h.values()].every((n) => n !== null && n !== twoNode) ? true : undefined;
        },
        20_000,
      );
      // The dead matcher shows as gone, its markets under the live one, and its idle queue leaves
      // the list (read again within 5 s).
      const afterDeath = await c1.waitFor(
        'matcher two shown as gone, its queue no longer listed',
        async () => {
          const v = await nodesView(c1);
          const gone = (v.nodes as Json[]).some((n) => n.nodeId === twoNode && n.gone);
          const listed = (v.queues as Json[]).some((q) => q.queue === matcherQueueName(twoNode));
          return v.unavailable.length === 0 && gone && !listed ? v : undefined;
        },
        20_000,
      );
      expect((afterDeath.markets as Json[]).filter((m) => m.unowned)).toEqual([]);
      const oneNode = [...byNode.keys()].find((node) => node !== twoNode)!;
      expect((afterDeath.queues as Json[]).map((q) => q.queue)).toContain(matcherQueueName(oneNode));
      for (const id of twosMarkets) {
        const book = await c1.ok('GET', `/v2/clob/markets/${id}/orderbook`);
        expect(book.yes.bids).toEqual([{ price: 1000, size: String(5n * USDC) }]);
      }
      const taker = await c1.fundedTrader(50n * USDC);
      await c1.write(
        '/v2/clob/account/split',
        { pubkey: taker.publicKey.toBase58(), marketId: twosMarkets[0], amount: (5n * USDC).toString() },
        taker,
      );
      await c1.waitFor('split indexed', async () =>
        (await c1.balances(taker)).markets.some((x: { yesTokens: string }) => x.yesTokens === '5000000') ? true : undefined,
      );
      const market = markets.find((m) => m.id === twosMarkets[0])!;
      const sell = await c1.place(taker, {
        market: market.marketPubkey,
        side: 'sell',
        outcome: 'yes',
        priceBps: 1000,
        quantity: 2n * USDC,
      });
      expect(sell.status, JSON.stringify(sell.json)).toBe(200);
      expect(sell.json.fills).toHaveLength(1);
    } finally {
      redis.disconnect();
    }
    one.child.kill('SIGINT');
    expect((await within(one.exited, 30_000, 'matcher one shutdown')).code).toBe(0);
  }, 180_000);
});
