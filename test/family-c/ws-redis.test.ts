/**
 * The node's event subscription drops (Redis kills the pub/sub connection, as it does when a
 * subscriber's output buffer overflows) while bots are connected: once ioredis has resubscribed,
 * market subscribers get a fresh book and carry on in seq order, and user-channel clients are
 * closed with 1012 so they reconnect and reconcile from REST. Runs on a private redis-server of
 * this test (the machine's shared Redis is never touched).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../src/infra/free-port.js';
import { WS_CLOSE } from '../../src/services/family-c/ws/ws-protocol.js';
import { tempDir } from '../helpers/databases.js';
import { createClobMarket, depositedTrader, openClobHarness, place, USDC, type CHarness } from './family-c.harness.js';
import { WsClient, wsUrl, type Frame } from './ws-client.js';

let server: ChildProcess;
let admin: Redis;
let h: CHarness;

beforeAll(async () => {
  const port = await findFreePort();
  server = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tempDir('pmx-ws-redis-')],
    { stdio: 'ignore' },
  );
  admin = new Redis(`redis://127.0.0.1:${port}`, { retryStrategy: (n) => (n > 50 ? null : 100) });
  admin.on('error', () => undefined); // the server is killed at the end
  await admin.ping();
  h = await openClobHarness({ REDIS_URL: `redis://127.0.0.1:${port}` });
});
afterAll(async () => {
  await h?.close().catch(() => undefined);
  admin?.disconnect();
  server?.kill('SIGKILL');
});

const isBook = (f: Frame | string) => typeof f === 'object' && f.event === 'book';

describe('event subscription interrupted', () => {
  it('resyncs market subscribers with a fresh book and closes user clients with 1012', async () => {
    const market = await createClobMarket(h);
    const maker = await depositedTrader(h, 50n * USDC);
    const m = await WsClient.open(wsUrl(h.daemon.url!, 'market'));
    const u = await WsClient.open(wsUrl(h.daemon.url!, 'user'));
    await m.command({ type: 'subscribe', markets: [market.id] });
    await u.command({ type: 'subscribe', pubkey: maker.publicKey.toBase58() });
    await m.waitFor(isBook);
    await place(h, maker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 4000, quantity: USDC });
    const first = await m.waitFor((f) => typeof f === 'object' && f.event === 'best_bid_ask');

    expect(await admin.client('KILL', 'TYPE', 'pubsub')).toBeGreaterThan(0);
    expect((await u.closed).code).toBe(WS_CLOSE.serviceRestart);
    const fresh = await m.waitFor((f) => isBook(f) && (f as Frame).seq >= first.seq, 10_000, 3);
    expect(fresh.yes.bids).toEqual([{ price: 4000, size: '1000000' }]);

    await place(h, maker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 4100, quantity: USDC });
    const next = await m.waitFor((f) => typeof f === 'object' && f.event === 'price_change' && f.price === 4100);
    expect(next.seq).toBe(fresh.seq + 1);
    m.close();
  });
});
