/**
 * Issue 25 part 1 through the real routes (embedded cluster, SQLite, Redis, the matcher): the
 * API accepts exactly the signatures the chain's Ed25519 program accepts. A trader's r = 0
 * signature (R = identity) of its own order, cancel or cancel-all is refused with 403
 * INVALID_SIGNATURE and changes nothing; the identity key (which "signs" every message with
 * R = identity, S = 0 for a lax verifier) cannot set up or fund a smart wallet, nor order.
 * Before the strict rule the order was accepted `open` and the cancels went through.
 */
import { PublicKey, type Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelAllText, cancelOrderText } from '../../src/domain/signed-message.js';
import { IDENTITY_PUBKEY, IDENTITY_SIGNATURE, signTextBase58, zeroNonceSignature } from '../helpers/sign.js';
import {
  createClobMarket,
  depositedTrader,
  get,
  openClobHarness,
  place,
  post,
  signedOrder,
  USDC,
  waitFor,
  type CHarness,
} from './family-c.harness.js';

let h: CHarness;
beforeAll(async () => {
  h = await openClobHarness();
});
afterAll(async () => h?.close());

const IDENTITY = new PublicKey(IDENTITY_PUBKEY).toBase58();
const ordersOf = async (owner: string) =>
  (await get(h, `/v2/clob/orders?pubkey=${owner}`)).json().orders as Array<{ id: string; status: string }>;
const bookOf = async (marketId: string) => ({ ...(await get(h, `/v2/clob/markets/${marketId}/orderbook`)).json(), timestamp: 0 });
/** The book once a matcher serves the market (its seq null before): a later read differs only if an order changed it. */
const servedBookOf = (marketId: string) =>
  waitFor(
    'the market served by a matcher',
    async () => {
      const book = await bookOf(marketId);
      return book.seq === null ? undefined : book;
    },
    20_000,
  );
const balances = async (owner: string) => (await get(h, `/v2/clob/account/balances?pubkey=${owner}`)).json();

describe('strict signatures on the routes', () => {
  it('an order signed with r = 0 by its real owner: 403 INVALID_SIGNATURE, no order, no hold, book unchanged', async () => {
    const market = await createClobMarket(h);
    const attacker = await depositedTrader(h, 20n * USDC);
    const owner = attacker.publicKey.toBase58();
    const before = { book: await servedBookOf(market.id), balances: await balances(owner) };

    const res = await post(
      h,
      '/v2/clob/orders',
      signedOrder(
        attacker,
        { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 10n * USDC },
        zeroNonceSignature,
      ),
    );
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'INVALID_SIGNATURE' });

    expect(await ordersOf(owner)).toEqual([]);
    expect(await bookOf(market.id)).toEqual(before.book);
    expect(await balances(owner)).toEqual(before.balances);
    // The same order honestly signed is accepted (the refusal is the signature's, nothing else).
    expect(
      await place(h, attacker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 10n * USDC }),
    ).toMatchObject({ status: 'open' });
  });

  it('cancel and cancel-all signed with r = 0 are refused and cancel nothing', async () => {
    const market = await createClobMarket(h);
    const trader = await depositedTrader(h, 20n * USDC);
    const owner = trader.publicKey.toBase58();
    const order = await place(h, trader, { market: market.marketPubkey, side: 'buy', outcome: 'no', priceBps: 3000, quantity: 5n * USDC });

    const cancel = await post(h, `/v2/clob/orders/${order.orderId}/cancel`, {
      pubkey: owner,
      signature: bs58.encode(zeroNonceSignature(trader, cancelOrderText(order.orderId))),
    });
    expect(cancel.statusCode).toBe(403);
    expect(cancel.json()).toMatchObject({ error: 'INVALID_SIGNATURE' });
    const ts = Math.floor(Date.now() / 1000);
    for (const scope of [market.id, '*']) {
      const all = await post(h, '/v2/clob/orders/cancel-all', {
        pubkey: owner,
        marketId: scope,
        timestamp: ts,
        signature: bs58.encode(zeroNonceSignature(trader, cancelAllText(scope, ts))),
      });
      expect(all.statusCode).toBe(403);
      expect(all.json()).toMatchObject({ error: 'INVALID_SIGNATURE' });
    }
    expect((await ordersOf(owner)).map((o) => o.status)).toEqual(['open']);
    // The owner's real signature still cancels.
    const real = await post(h, `/v2/clob/orders/${order.orderId}/cancel`, {
      pubkey: owner,
      signature: signTextBase58(trader, cancelOrderText(order.orderId)),
    });
    expect(real.statusCode).toBe(200);
  });

  it('the identity key cannot set up or fund a smart wallet (400 INVALID_PUBKEY, nothing built) nor order', async () => {
    const market = await createClobMarket(h);
    const setup = await get(h, `/v2/clob/account/setup?pubkey=${IDENTITY}`);
    expect(setup.statusCode).toBe(400);
    expect(setup.json()).toMatchObject({ error: 'INVALID_PUBKEY' });
    const deposit = await post(h, '/v2/clob/account/deposit', { pubkey: IDENTITY, amount: '1000000' });
    expect(deposit.statusCode).toBe(400);
    expect(deposit.json()).toMatchObject({ error: 'INVALID_PUBKEY' });
    expect(deposit.json().transaction).toBeUndefined();
    const wallets = await h.daemon.db.db.selectFrom('clob_wallets').selectAll().where('owner', '=', IDENTITY).execute();
    expect(wallets).toEqual([]);

    const identity = { publicKey: new PublicKey(IDENTITY_PUBKEY) } as Keypair;
    const order = await post(
      h,
      '/v2/clob/orders',
      signedOrder(
        identity,
        { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: USDC },
        () => IDENTITY_SIGNATURE,
      ),
    );
    expect(order.statusCode).toBe(403);
    expect(order.json()).toMatchObject({ error: 'INVALID_SIGNATURE' });
    const ts = Math.floor(Date.now() / 1000);
    const all = await post(h, '/v2/clob/orders/cancel-all', {
      pubkey: IDENTITY,
      marketId: '*',
      timestamp: ts,
      signature: bs58.encode(IDENTITY_SIGNATURE),
    });
    expect(all.statusCode).toBe(403);
  });
});
