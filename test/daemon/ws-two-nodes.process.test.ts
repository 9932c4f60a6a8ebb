/**
 * Events reach every API node: two daemon processes on one Redis prefix and one database — A runs
 * every role (ledger, workers, indexer, the matcher, an API), B only an API. Bots connected to
 * either node subscribe to the same market and wallets; orders go in through both nodes (B hands
 * its orders to A's matcher through the queue). Both nodes' clients receive the same market
 * frames (same seq, same events) and the same user events, and a client joining B late gets a
 * book that, with its deltas, equals the REST book.
 */
import { Connection, Keypair, VersionedTransaction } from '@solana/web3.js';
import { afterAll, describe, expect, it } from 'vitest';
import { findFreePortPair } from '../../src/infra/free-port.js';
import { cancelOrderText } from '../../src/domain/signed-message.js';
import { signedOrder, USDC } from '../family-c/family-c.harness.js';
import { ReplayBook, WsClient, wsUrl, type Frame } from '../family-c/ws-client.js';
import { tempDir } from '../helpers/databases.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { signText } from '../helpers/sign.js';
import { startReadyDaemon, within, type DaemonProcess } from './daemon-process.js';

const ADMIN = 'ws-two-nodes-admin-token-0123';
const started: DaemonProcess[] = [];
const clients: WsClient[] = [];
const prefix = uniquePrefix('ws2');
afterAll(async () => {
  for (const c of clients) c.socket.terminate();
  for (const d of started) if (d.child.exitCode === null) d.child.kill('SIGKILL');
  await deleteKeys(prefix);
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies checked field by field

async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as Json };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('WebSockets on two API nodes', () => {
  it('a client on either node sees every event', async () => {
    const dataDir = tempDir('pmx-ws2-');
    const ledgerPort = await findFreePortPair();
    const shared = {
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: prefix,
      LEDGER_RPC_PORT: String(ledgerPort),
      ADMIN_TOKEN: ADMIN,
      INDEX_INTERVAL_MS: '600000',
      RATE_LIMIT_WRITE_PER_MIN: '100000',
    };
    const a = await startReadyDaemon(dataDir, shared, '/ready', 60_000);
    started.push(a);
    const b = await startReadyDaemon(dataDir, { ...shared, ROLES: 'api', RPC_URL: `http://127.0.0.1:${ledgerPort}` }, '/ready', 60_000);
    started.push(b);

    const created = await call(
      a.url,
      'POST',
      '/v2/admin/clob/markets',
      {
        title: 'Two nodes',
        description: 'WebSocket fan-out',
        resolutionRules: 'YES if it works.',
        category: 'test',
        endDate: new Date(Date.now() + 86_400_000).toISOString(),
        yesTicker: 'Y',
        noTicker: 'N',
      },
      { authorization: `Bearer ${ADMIN}` },
    );
    expect(created.status).toBe(200);
    const market = created.json.market as { id: string; marketPubkey: string; marketId: string };

    const rpc = new Connection((await call(a.url, 'GET', '/v2/config')).json.data.rpcUrl, 'confirmed');
    const [maker, taker] = [Keypair.generate(), Keypair.generate()];
    for (const t of [maker, taker]) {
      expect(
        (await call(a.url, 'POST', '/v2/dev/faucet', { wallet: t.publicKey.toBase58(), usdc: String(100n * USDC), sol: '1000000000' }))
          .status,
      ).toBe(200);
    }

    // Bots on both nodes, both channels, before anything happens.
    const watch = async (node: DaemonProcess) => {
      const m = await WsClient.open(wsUrl(node.url, 'market'));
      const u = await WsClient.open(wsUrl(node.url, 'user'));
      clients.push(m, u);
      expect((await m.command({ type: 'subscribe', markets: [market.marketId] })).event).toBe('subscribed');
      for (const t of [maker, taker])
        expect((await u.command({ type: 'subscribe', pubkey: t.publicKey.toBase58() })).event).toBe('subscribed');
      await m.waitFor((f) => typeof f === 'object' && f.event === 'book');
      return { m, u };
    };
    const onA = await watch(a);
    const onB = await watch(b);

    // Deposits built by either node, signed by the traders, indexed by A: balance updates reach both.
    for (const [t, node] of [
      [maker, b],
      [taker, a],
    ] as const) {
      const res = await call(node.url, 'POST', '/v2/clob/account/deposit', { pubkey: t.publicKey.toBase58(), amount: String(50n * USDC) });
      expect(res.status).toBe(200);
      const tx = VersionedTransaction.deserialize(Buffer.from(res.json.transaction, 'base64'));
      tx.sign([t]);
      await rpc.confirmTransaction(await rpc.sendRawTransaction(tx.serialize()), 'confirmed');
      await until('deposit indexed', async () =>
        (await call(b.url, 'GET', `/v2/clob/account/balances?pubkey=${t.publicKey.toBase58()}`)).json.smartWalletBalance ===
        String(50n * USDC)
          ? true
          : undefined,
      );
    }

    // Orders through B (to A's matcher over the queue) and A; a cancel through B.
    const placeVia = async (node: DaemonProcess, who: Keypair, spec: Parameters<typeof signedOrder>[1]) => {
      const res = await call(node.url, 'POST', '/v2/clob/orders', signedOrder(who, spec));
      expect(res.status).toBe(200);
      return res.json;
    };
    const bid = await placeVia(b, maker, {
      market: market.marketPubkey,
      side: 'buy',
      outcome: 'yes',
      priceBps: 4000,
      quantity: 10n * USDC,
    });
    await placeVia(b, maker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 3900, quantity: 5n * USDC });
    expect(
      (await placeVia(a, taker, { market: market.marketPubkey, side: 'buy', outcome: 'no', priceBps: 6000, quantity: 4n * USDC })).status,
    ).toBe('filled');
    const cancel = await call(b.url, 'POST', `/v2/clob/orders/${bid.orderId}/cancel`, {
      pubkey: maker.publicKey.toBase58(),
      signature: Buffer.from(signText(maker, cancelOrderText(bid.orderId))).toString('base64'),
    });
    expect(cancel.status).toBe(200);

    // Both nodes' bots see the same frames: the market feed (book, then seq 1..n) and the user feed.
    const marketFrames = (c: WsClient) =>
      c.events
        .filter((f) => typeof f.seq === 'number' && f.event !== 'book')
        .map(({ seq, event, price, size }) => ({ seq, event, price, size }));
    const userFrames = (c: WsClient) =>
      c.events.filter((f) => f.owner).map((f) => `${f.event} ${f.owner} ${f.order?.id ?? f.fill?.id ?? f.balance?.smartWalletBalance}`);
    await until('all market events on both nodes', async () =>
      marketFrames(onA.m).length >= 7 && marketFrames(onB.m).length === marketFrames(onA.m).length ? true : undefined,
    );
    // Waits for the last event caused (the cancel) on both nodes, not for a count: settlement's
    // balance updates can make up any count before it arrives.
    const cancelled = (c: WsClient) => userFrames(c).includes(`order:cancelled ${maker.publicKey.toBase58()} ${bid.orderId}`);
    await until('all user events on both nodes', async () =>
      cancelled(onA.u) && cancelled(onB.u) && userFrames(onB.u).length === userFrames(onA.u).length ? true : undefined,
    );
    // The first seven events; the fill's `trade` again with status settled (seq 8) may or may not
    // have arrived yet, depending on how fast the keeper settles.
    const firstSeven = (c: WsClient) => marketFrames(c).slice(0, 7);
    expect(firstSeven(onB.m)).toEqual(firstSeven(onA.m));
    for (const c of [onA.m, onB.m]) {
      expect(c.events.filter((f) => typeof f.seq === 'number' && f.seq > 7).map((f) => [f.seq, f.event, f.trade?.status])).toEqual(
        c.events.some((f) => f.seq === 8) ? [[8, 'trade', 'settled']] : [],
      );
    }
    expect(firstSeven(onA.m).map((f) => [f.seq, f.event, f.price, f.size])).toEqual([
      [1, 'price_change', 4000, '10000000'],
      [2, 'best_bid_ask', undefined, undefined],
      [3, 'price_change', 3900, '5000000'],
      [4, 'trade', undefined, undefined],
      [5, 'price_change', 4000, '6000000'],
      [6, 'price_change', 4000, '0'],
      [7, 'best_bid_ask', undefined, undefined],
    ]);
    expect(userFrames(onB.u)).toEqual(userFrames(onA.u));
    expect(userFrames(onA.u).map((f) => f.split(' ')[0])).toEqual(
      expect.arrayContaining([
        'balance:update',
        'order:placed',
        'order:filled',
        'order:partially_filled',
        'fill:matched',
        'order:cancelled',
      ]),
    );

    // A bot joining B now: its snapshot + deltas equal the REST book of either node.
    const late = await WsClient.open(wsUrl(b.url, 'market'));
    clients.push(late);
    await late.command({ type: 'subscribe', markets: [market.id] });
    const replay = new ReplayBook();
    replay.apply(await late.waitFor((f) => typeof f === 'object' && f.event === 'book'));
    await placeVia(a, taker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 4200, quantity: 1n * USDC });
    const change = await late.waitFor((f) => typeof f === 'object' && f.event === 'price_change' && f.price === 4200);
    for (const f of late.events.filter((x: Frame) => x.event !== 'book' && x.event !== 'subscribed')) expect(replay.apply(f)).toBe(true);
    expect(replay.seq).toBeGreaterThanOrEqual(change.seq);
    for (const node of [a, b]) {
      const rest = (await call(node.url, 'GET', `/v2/clob/markets/${market.id}/orderbook`)).json;
      expect(replay.view()).toEqual({ yes: rest.yes, no: rest.no, bestBid: rest.bestBid, bestAsk: rest.bestAsk });
    }

    // Shutting a node down tells its clients to go elsewhere (1001); the other node keeps serving.
    b.child.kill('SIGINT');
    expect((await within(onB.m.closed, 30_000, 'B closing its sockets')).code).toBe(1001);
    expect((await within(b.exited, 30_000, 'B shutdown')).code).toBe(0);
    onA.m.send('PING');
    await onA.m.waitFor((f) => f === 'PONG');
    a.child.kill('SIGINT');
    expect((await within(a.exited, 30_000, 'A shutdown')).code).toBe(0);
  }, 240_000);
});
