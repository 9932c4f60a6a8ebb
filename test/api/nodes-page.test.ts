/**
 * The operators' Nodes page and GET /v2/admin/nodes on a real app (inject), real Redis and both
 * databases: every node with its beat and event-loop delay (gone ones marked), the markets each
 * matcher owns with epoch and lease expiry, the markets without a live matcher, and every
 * queue's depth including the matchers' queues — which the job dashboard and `pmx_queue_jobs`
 * list too, from the moment their node beats. Both behind the admin token.
 */
import { randomUUID } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { bumpMatcherEpoch, insertCatalogMarket, insertClobTerms } from '../../db/repositories/clob-markets.repository.js';
import { recordBeat } from '../../db/repositories/daemon-nodes.repository.js';
import { matcherQueueName } from '../../jobs/matcher-queue.js';
import { QueueDirectory } from '../../jobs/queue-directory.js';
import { JobQueues } from '../../jobs/queues.js';
import { nodesPage } from '../../src/api/pages/nodes-page.js';
import { nodesOverview } from '../../src/services/nodes-overview.service.js';
import { createTestApp, TEST_ADMIN_TOKEN, TEST_BEAT_INTERVAL_MS, type TestApp } from '../helpers/app.js';
import { DIALECTS } from '../helpers/databases.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const MATCHER_A = 'host-a:8080:api+matcher:111:aaaa1111';
const MATCHER_GONE = 'host-b:8080:matcher:222:bbbb2222';
const MATCHER_GONE_IDLE = 'host-c:8080:matcher:333:cccc3333';
const WORKER = 'host-d:8080:worker+indexer:444:dddd4444';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function clobMarket(db: DatabaseHandle, slug: string): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await insertCatalogMarket(db.db, {
    ...{ id, slug, kind: 'clob', name: slug, description: '', category: 'c', tags: '[]', image_urls: '[]', status: 'active' },
    ...{ creator: null, yes_ticker: 'YES', no_ticker: 'NO', yes_mint: null, no_mint: null, end_date: now, published: 1 },
    ...{ created_at: now, updated_at: now },
  });
  const pubkey = Keypair.generate().publicKey.toBase58();
  await insertClobTerms(db.db, { market_id: id, market_pubkey: pubkey, vault: 'v', resolution_rules: '', image_url: '', slot: 0n });
  return id;
}

const beat = (db: DatabaseHandle, nodeId: string, agoMs: number, lag?: { p99Us: number; meanUs: number }) =>
  recordBeat(
    db.db,
    {
      nodeId,
      roles: nodeId.split(':')[2]!.split('+'),
      hostname: nodeId.split(':')[0]!,
      pid: 1,
      version: '9.9.9',
      startedAt: '2026-01-01T00:00:00.000Z',
    },
    new Date(Date.now() - agoMs),
    lag,
  );

for (const { name, available, open } of DIALECTS)
  describe.skipIf(!available)(`Nodes page on ${name}`, () => {
    let db: DatabaseHandle;
    let t: TestApp;
    let redis: Redis;
    const extra: Queue[] = [];
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      db = await open();
      t = await createTestApp({ db });
      redis = new Redis(TEST_REDIS_URL);
      const queue = (node: string) => {
        const q = new Queue(matcherQueueName(node), { connection: redis, prefix: t.prefix });
        extra.push(q);
        return q;
      };
      await beat(db, WORKER, 1_000, { p99Us: 4_200, meanUs: 300 });
      await beat(db, MATCHER_A, 500, { p99Us: 1_500, meanUs: 120 });
      const gone = TEST_BEAT_INTERVAL_MS * 3 + 10_000;
      await beat(db, MATCHER_GONE, gone);
      await beat(db, MATCHER_GONE_IDLE, gone + 5_000);
      for (const slug of ['owned', 'stale', 'orphan']) ids[slug] = await clobMarket(db, `${slug}-${name}`);
      await bumpMatcherEpoch(db.db, ids.owned!, MATCHER_A);
      await bumpMatcherEpoch(db.db, ids.owned!, MATCHER_A);
      await bumpMatcherEpoch(db.db, ids.stale!, MATCHER_GONE);
      await redis.set(`${t.prefix}:clob:lease:${ids.owned}`, MATCHER_A, 'PX', 8_000);
      await redis.set(`${t.prefix}:clob:lease:${ids.stale}`, MATCHER_GONE, 'PX', 3_000);
      // Orders waiting on the live matcher, and one left on the gone one's queue.
      await queue(MATCHER_A).add('place', { op: 'place' });
      await queue(MATCHER_A).add('place', { op: 'place' });
      await queue(MATCHER_GONE).add('cancel', { op: 'cancel' });
    });
    afterAll(async () => {
      await Promise.all(extra.map((q) => q.close()));
      redis?.disconnect();
      await t?.close();
      await db?.close();
    });

    it('answers every node, the markets each matcher owns and every queue in JSON', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v2/admin/nodes', headers: admin });
      expect(res.statusCode, res.body).toBe(200);
      const data = res.json().data as Json;
      expect(data.unavailable).toEqual([]);
      expect(data.nodes.map((n: Json) => [n.nodeId, n.gone])).toEqual([
        [MATCHER_A, false],
        [WORKER, false],
        [MATCHER_GONE, true],
        [MATCHER_GONE_IDLE, true],
      ]);
      const [a, worker] = data.nodes as Json[];
      expect(worker).toMatchObject({ roles: ['worker', 'indexer'], version: '9.9.9', loopLagP99Ms: 4.2, loopLagMeanMs: 0.3, markets: [] });
      expect(a!.markets).toEqual([
        expect.objectContaining({ marketId: ids.owned, slug: `owned-${name}`, epoch: '2', epochNode: MATCHER_A, unowned: false }),
      ]);
      expect(a!.markets[0].leaseExpiresInMs).toBeGreaterThan(5_000);
      expect(a!.markets[0].leaseExpiresInMs).toBeLessThanOrEqual(8_000);
      const markets = Object.fromEntries((data.markets as Json[]).map((m) => [m.slug.split('-')[0], m]));
      expect(markets.stale).toMatchObject({ leaseHolder: MATCHER_GONE, epoch: '1', unowned: true });
      expect(markets.orphan).toMatchObject({ leaseHolder: null, leaseExpiresInMs: null, epoch: '0', epochNode: null, unowned: true });

      const queues = Object.fromEntries((data.queues as Json[]).map((q) => [q.queue, q]));
      expect(Object.keys(queues)).toEqual([
        'system',
        'tx-build',
        'index',
        'platform',
        matcherQueueName(MATCHER_A),
        matcherQueueName(MATCHER_GONE),
      ]);
      expect(queues[matcherQueueName(MATCHER_A)]).toMatchObject({ node: MATCHER_A, waiting: 2, active: 0, failed: 0 });
      expect(queues[matcherQueueName(MATCHER_GONE)]).toMatchObject({ node: MATCHER_GONE, waiting: 1 });
      expect(queues.platform).toMatchObject({ node: null, waiting: 0 });
    });

    it('documents the route with its response schema', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json() as Json;
      const get = doc.paths['/v2/admin/nodes'].get as Json;
      expect(get.tags).toEqual(['admin']);
      expect(Object.keys(get.responses).sort()).toEqual(['200', '401']);
      const data = get.responses['200'].content['application/json'].schema.properties.data;
      expect(Object.keys(data.properties).sort()).toEqual([
        'beatIntervalMs',
        'generatedAt',
        'goneAfterMs',
        'markets',
        'nodes',
        'queues',
        'unavailable',
      ]);
    });

    it('renders the page: alerts above the fold, nodes, matchers, queues', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/admin/nodes', headers: { ...admin, accept: 'text/html' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      const html = res.body;
      const alert = html.indexOf('class="alert"');
      expect(alert).toBeGreaterThan(-1);
      expect(alert).toBeLessThan(html.indexOf('<h2>Nodes</h2>'));
      expect(html).toContain(`2 market(s) without a live matcher`);
      expect(html).toContain(`Node ${MATCHER_GONE} stopped beating`);
      expect(html).toContain('2 live node(s) of 4 on record');
      expect(html).toContain('4.2 ms p99 · 0.3 ms mean');
      const ownedBy = html.slice(html.indexOf(`<h3>${MATCHER_A}</h3>`), html.indexOf(`<h3>${MATCHER_GONE} (gone)</h3>`));
      expect(ownedBy).toContain(`<td>owned-${name}</td>`);
      expect(ownedBy).not.toContain(`stale-${name}`);
      expect(html).toContain(`<a href="/admin/queues/queue/${matcherQueueName(MATCHER_A)}">${matcherQueueName(MATCHER_A)}</a>`);
      expect(html).toContain('<a href="/admin/nodes">Nodes</a>');
    });

    it('still shows the nodes when Redis cannot be read, naming what is missing', async () => {
      // Nothing listens on port 1: every command fails at once, as against a Redis that is down.
      const away = new Redis('redis://127.0.0.1:1', { enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
      away.on('error', () => undefined);
      const queues = new JobQueues(away, t.prefix);
      for (const queue of queues.queues.values()) queue.on('error', () => undefined); // expected here: quiet
      const directory = new QueueDirectory({ queues, connection: away, matcherNodes: async () => [], maxAgeMs: 0 });
      try {
        const overview = await nodesOverview({
          db: db.db,
          redis: away,
          queuePrefix: t.prefix,
          beatIntervalMs: TEST_BEAT_INTERVAL_MS,
          queueDepths: () => directory.depths(),
        });
        expect(overview.unavailable.map((u) => u.part).sort()).toEqual(['leases', 'queues']);
        expect(overview.nodes.map((n) => n.nodeId)).toContain(MATCHER_A);
        expect(overview.queues).toEqual([]);
        // Unknown leases raise no alarm for every market at once.
        expect(overview.markets.map((m) => [m.leaseHolder, m.unowned])).toEqual(overview.markets.map(() => [null, false]));
        const html = nodesPage(overview);
        expect(html).toContain('Could not read the queues this time');
        expect(html).toContain('Could not read the leases this time');
      } finally {
        await directory.close();
        await queues.close();
        away.disconnect();
      }
    });

    it('refuses without the admin token: 401 in JSON, the login page for a browser', async () => {
      const json = await t.app.inject({ method: 'GET', url: '/v2/admin/nodes' });
      expect(json.statusCode).toBe(401);
      expect(json.json()).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
      const wrong = await t.app.inject({ method: 'GET', url: '/v2/admin/nodes', headers: { authorization: 'Bearer nope' } });
      expect(wrong.statusCode).toBe(401);
      const page = await t.app.inject({ method: 'GET', url: '/admin/nodes', headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(302);
      expect(page.headers.location).toBe('/admin/login?next=%2Fadmin%2Fnodes');
      expect(page.body).not.toContain(MATCHER_A);
    });

    it('lists a matcher queue in the job dashboard and the metrics from its node first beat', async () => {
      const boardQueues = async () => {
        const res = await t.app.inject({ method: 'GET', url: '/admin/queues/api/queues', headers: admin });
        expect(res.statusCode, res.body).toBe(200);
        return (res.json().queues as Json[]).map((q) => q.name as string);
      };
      const later = 'host-e:8080:matcher:555:eeee5555';
      expect(await boardQueues()).toContain(matcherQueueName(MATCHER_A));
      expect(await boardQueues()).not.toContain(matcherQueueName(later));
      await beat(db, later, 0);
      expect(await boardQueues()).toContain(matcherQueueName(later));
      expect(await boardQueues()).not.toContain(matcherQueueName(MATCHER_GONE_IDLE)); // gone with nothing left to do

      const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(metrics).toContain(`pmx_queue_jobs{queue="${matcherQueueName(MATCHER_A)}",state="waiting"} 2`);
      expect(metrics).toContain(`pmx_queue_jobs{queue="${matcherQueueName(later)}",state="waiting"} 0`);
      expect(metrics).not.toContain(matcherQueueName(MATCHER_GONE_IDLE));
    });
  });
