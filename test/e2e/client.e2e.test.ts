// @pmx/client against the real daemon process: the checked-in OpenAPI document and types have not
// drifted from what the daemon serves, and a market maker's Family C day and a Family B creator's
// market work through the client alone (its REST calls, its signing helpers, its transaction helpers).
import fs from 'node:fs';
import {
  ClobTrader,
  createPmxClient,
  isPlacement,
  keypairSigner,
  PmxApiError,
  signConfirmMarket,
  unwrap,
  type OrderRequest,
  type PmxClient,
} from '@pmx/client';
import { signAndSend } from '@pmx/client/solana';
import { createKeyPairSignerFromBytes } from '@solana/kit';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { ExactSvmScheme } from '@x402/svm/exact/client';
import { Connection, Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentText, fetchDocument, OPENAPI_JSON, OPENAPI_TYPES, REGENERATE, typesText } from '../../scripts/client-openapi.js';
import { startReadyDaemon, type DaemonProcess } from '../daemon/daemon-process.js';
import { tempDir } from '../helpers/databases.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

const ADMIN = 'client-e2e-admin-token-0123456789abc';
const USDC = 1_000_000n;

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('@pmx/client against a real daemon process', () => {
  let daemon: DaemonProcess;
  let api: PmxClient;
  let conn: Connection;
  const prefix = uniquePrefix('client-e2e');
  beforeAll(async () => {
    daemon = await startReadyDaemon(
      tempDir('pmx-client-e2e-'),
      { REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: prefix, ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'warn' },
      '/v2/config',
      60_000,
    );
    api = createPmxClient({ baseUrl: daemon.url });
    const config = (await unwrap(api.GET('/v2/config'))).data;
    conn = new Connection(config.rpcUrl as string, 'confirmed');
  }, 200_000);
  afterAll(async () => {
    if (daemon && daemon.child.exitCode === null) {
      daemon.child.kill('SIGTERM');
      await daemon.exited;
    }
    await deleteKeys(prefix);
  });

  const funded = async (usdc: bigint): Promise<Keypair> => {
    const k = Keypair.generate();
    await unwrap(
      api.POST('/v2/dev/faucet', { body: { wallet: k.publicKey.toBase58(), usdc: (usdc * USDC).toString(), sol: '2000000000' } }),
    );
    return k;
  };

  it('the checked-in openapi.json and generated types are what the running daemon serves', async () => {
    const served = documentText(await fetchDocument(daemon.url));
    const checkedIn = fs.readFileSync(OPENAPI_JSON, 'utf8');
    // A plain equality, not toEqual: a 870 kB diff is useless; the message says what to do.
    expect(served === checkedIn, `packages/client/openapi.json differs from the daemon's GET /openapi.json: ${REGENERATE}`).toBe(true);
    const types = await typesText(served);
    expect(types === fs.readFileSync(OPENAPI_TYPES, 'utf8'), `packages/client/src/generated/openapi.ts is stale: ${REGENERATE}`).toBe(true);
  });

  it('Family C market maker: deposit, batch of 5 levels on both outcomes, replace, cancel by ids, heartbeat, cancel-all', async () => {
    const admin = createPmxClient({ baseUrl: daemon.url, adminToken: ADMIN });
    const { market } = await unwrap(
      admin.POST('/v2/admin/clob/markets', {
        body: {
          title: 'Will the client quote?',
          description: 'A market of the client end-to-end test.',
          resolutionRules: 'YES when it does.',
          category: 'tests',
          endDate: new Date(Date.now() + 86_400_000).toISOString(),
          yesTicker: 'QUOTE',
          noTicker: 'IDLE',
        },
      }),
    );
    const owner = await funded(100n);
    const mm = new ClobTrader(api, keypairSigner(owner));
    const { transaction } = await unwrap(
      api.POST('/v2/clob/account/deposit', { body: { pubkey: mm.address, amount: (80n * USDC).toString() } }),
    );
    await signAndSend(conn, transaction, [owner]);
    await until('deposit indexed', async () => {
      const b = await unwrap(api.GET('/v2/clob/account/balances', { params: { query: { pubkey: mm.address } } }));
      return b.smartWalletBalance === String(80n * USDC) ? b : undefined;
    });

    // Five bid levels on each outcome, one request.
    const level = (outcome: 'yes' | 'no', i: number): OrderRequest => ({
      market: market.marketPubkey,
      side: 'buy',
      outcome,
      priceBps: (outcome === 'yes' ? 4000 : 3000) - 100 * i,
      quantity: 2n * USDC,
      postOnly: true,
    });
    const quotes = [0, 1, 2, 3, 4].flatMap((i) => [level('yes', i), level('no', i)]);
    const results = await mm.placeBatch(quotes);
    expect(results).toHaveLength(10);
    const placed = results.map((r) => {
      if (!isPlacement(r)) throw new Error(`refused: ${JSON.stringify(r)}`);
      expect(r.status).toBe('open');
      return r.orderId;
    });
    const book = await unwrap(api.GET('/v2/clob/markets/{id}/orderbook', { params: { path: { id: market.id } } }));
    expect(book.yes.bids.map((l) => l.price)).toEqual([4000, 3900, 3800, 3700, 3600]);
    expect(book.no.bids.map((l) => l.price)).toEqual([3000, 2900, 2800, 2700, 2600]);
    expect(book.hash).toMatch(/^[0-9a-f]{64}$/);

    // Requote the best YES bid in place, then pull two levels by id.
    const replaced = await mm.replace(placed[0]!, { ...level('yes', 0), priceBps: 4050 });
    expect(replaced).toMatchObject({ cancelledOrderId: placed[0], placement: { status: 'open' } });
    const byIds = await mm.cancelOrders([placed[1]!, placed[2]!]);
    expect(byIds).toEqual({ cancelled: [placed[1], placed[2]], notCancelled: [] });
    const again = await mm.cancelOrders([placed[1]!]);
    expect(again.notCancelled).toEqual([{ orderId: placed[1], reason: 'not_resting' }]);

    // A refusal is a PmxApiError with the Family C envelope.
    const refused = await mm.place({ ...level('yes', 0), priceBps: 4000, quantity: 0n }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PmxApiError);
    expect(refused).toMatchObject({ status: 400, family: 'C', code: 'INVALID_ORDER' });

    // The dead-man's switch: armed, disarmed.
    const deadline = await mm.heartbeat(30);
    expect(deadline! - Date.now() / 1000).toBeGreaterThan(28);
    expect(await mm.heartbeat(0)).toBeNull();

    // Cancel-all takes the other 7 resting orders (the replacement included).
    const { cancelled } = await mm.cancelAll(market.id);
    expect(new Set(cancelled)).toEqual(new Set([replaced.placement.orderId, ...placed.slice(3)]));

    // Armed and left to lapse: the daemon cancels what rests.
    const last = await mm.place(level('no', 0));
    await mm.heartbeat(5);
    const lapsed = await until(
      'heartbeat expiry',
      async () => {
        const { order } = await unwrap(api.GET('/v2/clob/orders/{id}', { params: { path: { id: last.orderId } } }));
        return order.status === 'cancelled' ? order : undefined;
      },
      20_000,
    );
    expect(lapsed.cancelReason).toBe('heartbeat_expired');
    const { orders } = await mm.orders({ marketId: market.id, status: 'open' });
    expect(orders).toEqual([]);
  }, 90_000);

  it('Family B creator: create, init-mints, confirm with the signed message, buy; errors in the Family B envelope', async () => {
    const creator = await funded(200n);
    const signer = keypairSigner(creator);
    const wallet = creator.publicKey.toBase58();
    const created = await unwrap(
      api.POST('/v2/markets/create', {
        body: {
          wallet,
          title: 'Client market?',
          description: 'Created through @pmx/client',
          yesTicker: 'CY',
          noTicker: 'CN',
          resolutionTime: Math.floor(Date.now() / 1000) + 3600,
          seedAmount: 50_000_000,
          tradeFeeBps: 200,
        },
      }),
    );
    // Family B's write answers document only `transaction` (the rest of `data` is loosely typed).
    await signAndSend(conn, created.data!.transaction, [creator]);
    const id = Number(created.data!.marketId);
    const mints = await unwrap(api.POST('/v2/markets/{id}/init-mints', { params: { path: { id: String(id) } }, body: { wallet } }));
    await signAndSend(conn, mints.data!.transaction, [creator]);
    const confirmed = await unwrap(api.POST('/v2/markets/confirm', { body: await signConfirmMarket(signer, id, { category: 'tests' }) }));
    expect(confirmed.data).toMatchObject({ marketId: id, slug: expect.stringMatching(/^[a-z0-9-]+$/) });

    const buy = await unwrap(
      api.POST('/v2/markets/{id}/buy', { params: { path: { id: String(id) } }, body: { wallet, side: 'CY', amount: 5_000_000 } }),
    );
    await signAndSend(conn, buy.data!.transaction, [creator]);
    const position = await until('position', async () => {
      const { data } = await unwrap(api.GET('/v2/positions/{wallet}', { params: { path: { wallet } } }));
      return data.find((p) => p.marketId === id && Number(p.yesBalance) > 0);
    });
    expect(Number(position.yesBalance)).toBe(Number((buy.data!.quote as { outputAmount: number }).outputAmount));

    const missing = await unwrap(
      api.GET('/v2/markets/{id}/quote', { params: { path: { id: '999999' }, query: { side: 'YES', amount: 1_000_000, action: 'buy' } } }),
    ).catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, family: 'B' });
  }, 90_000);

  it("Family A through the x402 Foundation's client: its wrapped fetch as the client's fetch (README)", async () => {
    const admin = createPmxClient({ baseUrl: daemon.url, adminToken: ADMIN });
    const created = await unwrap(
      admin.POST('/v2/admin/markets', {
        body: { name: `Client pays by x402 ${Date.now()}`, description: 'client e2e', endDate: '2030-01-01T00:00:00Z' },
      }),
    );
    const market = created.data as { slug: string; cas: { Yes: string } };
    const agent = await funded(10n);
    const wallet = agent.publicKey.toBase58();
    const body = { wallet, amount: 1.5, side: 'YES' as const };
    // What the daemon offers: a bare 402 through the plain client.
    const offer = await api.POST('/v2/markets/{slug}/trade/buy', { params: { path: { slug: market.slug } }, body });
    expect(offer.response.status).toBe(402);
    const network = decodePaymentRequiredHeader(offer.response.headers.get('PAYMENT-REQUIRED')!).accepts[0]!.network;
    const config = (await unwrap(api.GET('/v2/config'))).data as { usdcMint: string; rpcUrl: string };
    const x402 = x402Client.fromConfig({
      schemes: [{ network, client: new ExactSvmScheme(await createKeyPairSignerFromBytes(agent.secretKey), { rpcUrl: config.rpcUrl }) }],
      spendControls: { allowedAssets: [config.usdcMint, market.cas.Yes].map((asset) => ({ network, asset })) },
    });
    const paid = createPmxClient({ baseUrl: daemon.url, fetch: wrapFetchWithPayment(fetch, x402) });
    const bought = await unwrap(paid.POST('/v2/markets/{slug}/trade/buy', { params: { path: { slug: market.slug } }, body }));
    expect(bought.data).toMatchObject({ tokenAmount: 3000 });
  }, 60_000);
});
