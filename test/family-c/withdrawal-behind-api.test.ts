/**
 * A maker withdraws what its resting bids committed behind the API's back (signing the exchange
 * program's withdraw itself). The fill against its bid can never settle: it ends
 * `failed_insufficient_balance` with the reason, the maker's other resting orders are
 * cancelled, the taker's tokens are free again — never a stuck fill. The taker acts before the
 * index reads the withdrawal: the keeper's defence for the window the index cannot close.
 */
import { Transaction, type Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getWithdrawInstruction } from '@pmx/programs';
import { TEST_ADMIN_TOKEN } from '../helpers/app.js';
import {
  clobWrite,
  createClobMarket,
  depositedTrader,
  get,
  openClobHarness,
  place,
  USDC,
  waitFor,
  type CHarness,
} from './family-c.harness.js';

let h: CHarness;
beforeAll(async () => {
  h = await openClobHarness({ CLOB_SETTLE_SWEEP_INTERVAL_MS: '500' });
});
afterAll(async () => h?.close());

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Empties the owner's smart wallet with its own withdraw transaction, not through the API. */
async function withdrawAll(owner: Keypair): Promise<void> {
  const { blockhash } = await h.daemon.chain.client.getLatestBlockhash();
  const tx = new Transaction({ feePayer: owner.publicKey, recentBlockhash: blockhash });
  tx.add(
    getWithdrawInstruction({
      owner: owner.publicKey,
      usdcMint: h.usdcMint,
      amount: 50n * USDC,
      programId: h.daemon.chain.programs.exchange,
    }),
  );
  tx.sign(owner);
  expect((await h.ledger.sendRawTransaction(tx.serialize(), { preflight: true })).err).toBeNull();
}

/** Runs `change` then `act` while the index queue stands still, so that `act` meets the index as it was before `change`. */
async function beforeTheIndexSees<T>(change: () => Promise<void>, act: () => Promise<T>): Promise<T> {
  const index = h.daemon.queues.get('index');
  await index.pause();
  try {
    await change();
    return await act();
  } finally {
    await index.resume();
  }
}

describe('a withdrawal behind the API', () => {
  it("fails the fill with failed_insufficient_balance and cancels the owner's resting orders", async () => {
    const market = await createClobMarket(h);
    const maker = await depositedTrader(h, 50n * USDC);
    const taker = await depositedTrader(h, 50n * USDC);
    const tk = taker.publicKey.toBase58();
    await clobWrite(h, '/v2/clob/account/split', { pubkey: tk, marketId: market.id, amount: (10n * USDC).toString() }, taker);
    await waitFor('split indexed', async () =>
      (await get(h, `/v2/clob/account/balances?pubkey=${tk}`)).json().markets[0]?.yesTokens === '10000000' ? true : undefined,
    );

    const bid = await place(h, maker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 10n * USDC });
    const other = await place(h, maker, { market: market.marketPubkey, side: 'buy', outcome: 'no', priceBps: 1000, quantity: 10n * USDC });
    // The maker empties its smart wallet with its own transaction, and the taker sells before the
    // index has read it (once read, the bids would leave the book: uncovered-orders.test.ts).
    const sell = await beforeTheIndexSees(
      () => withdrawAll(maker),
      () =>
        place(h, taker, {
          market: market.marketPubkey,
          side: 'sell',
          outcome: 'yes',
          priceBps: 5000,
          quantity: 4n * USDC,
          timeInForce: 'ioc',
        }),
    );
    expect(sell.fills).toHaveLength(1);
    const fill = await waitFor(
      'the fill fails',
      async () => {
        const f = (await get(h, `/v2/clob/fills/${sell.fills[0].id}`)).json().fill as Json;
        return f.status === 'failed_insufficient_balance' ? f : undefined;
      },
      20_000,
    );
    expect(fill.failureReason).toMatch(/^InsufficientBalance/);
    expect(fill.failureReason).toContain('maker');
    for (const id of [bid.orderId, other.orderId]) {
      const order = await waitFor(`order ${id} cancelled`, async () => {
        const o = (await get(h, `/v2/clob/orders/${id}`)).json().order as Json;
        return o.status === 'cancelled' ? o : undefined;
      });
      expect(order.committedAmount).toBe('0');
    }
    // The taker's 4 YES are no longer held by the failed fill.
    const b = await waitFor('taker holds released', async () => {
      const x = (await get(h, `/v2/clob/account/balances?pubkey=${tk}`)).json() as Json;
      return x.markets[0]?.committedYesTokens === '0' ? x : undefined;
    });
    expect(b.markets[0].yesTokens).toBe('10000000');

    // Operators see it, with its reason, and can re-drive it (it fails again: the wallet is still empty).
    const auth = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
    const keeper = (await h.app.inject({ method: 'GET', url: '/v2/admin/clob/keeper', headers: auth })).json();
    expect(keeper.fillsByStatus.failed_insufficient_balance).toBe(1);
    expect(keeper.failedFills[0]).toMatchObject({ id: fill.id, failureReason: fill.failureReason });
    const html = (await h.app.inject({ method: 'GET', url: '/admin/orderbook', headers: auth })).body;
    expect(html).toContain('failed_insufficient_balance');
    expect(html).toContain(`/admin/orderbook/fills/${fill.id}/retry`);
    expect((await h.app.inject({ method: 'GET', url: '/admin/orderbook' })).statusCode).toBe(401);
    const redrive = await h.app.inject({ method: 'POST', url: `/admin/orderbook/fills/${fill.id}/retry`, headers: auth });
    expect(redrive.body).toContain('back in the settlement queue');
    const again = await waitFor(
      'the re-driven fill fails again',
      async () => {
        const f = (await get(h, `/v2/clob/fills/${fill.id}`)).json().fill as Json;
        const batches = await h.daemon.db.db.selectFrom('clob_batch_fills').select('batch_id').where('fill_id', '=', fill.id).execute();
        return f.status === 'failed_insufficient_balance' && batches.length >= 2 ? f : undefined;
      },
      20_000,
    );
    expect(again.failureReason).toMatch(/^InsufficientBalance/);

    // As the page's form re-drives it: an empty urlencoded body (this used to be 415: only the job
    // dashboard's scope parsed form bodies).
    const fromPage = await h.app.inject({
      method: 'POST',
      url: `/admin/orderbook/fills/${fill.id}/retry`,
      payload: '',
      headers: {
        authorization: `Bearer ${TEST_ADMIN_TOKEN}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'text/html',
      },
    });
    expect(fromPage.statusCode, fromPage.body).toBe(200);
    expect(fromPage.body).toContain('back in the settlement queue');
  }, 60_000);

  it("gives the innocent party's resting order the quantity of the failed fill back", async () => {
    const market = await createClobMarket(h);
    const maker = await depositedTrader(h, 50n * USDC);
    const taker = await depositedTrader(h, 50n * USDC);
    const tk = taker.publicKey.toBase58();
    await clobWrite(h, '/v2/clob/account/split', { pubkey: tk, marketId: market.id, amount: (20n * USDC).toString() }, taker);
    await waitFor('split indexed', async () =>
      (await get(h, `/v2/clob/account/balances?pubkey=${tk}`)).json().markets[0]?.yesTokens === '20000000' ? true : undefined,
    );
    await place(h, maker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 10n * USDC });
    // The taker's ask of 15 takes the stale bid's 10 (the index has not read the withdrawal yet) and rests with 5.
    const ask = await beforeTheIndexSees(
      () => withdrawAll(maker),
      () => place(h, taker, { market: market.marketPubkey, side: 'sell', outcome: 'yes', priceBps: 5000, quantity: 15n * USDC }),
    );
    expect(ask).toMatchObject({ status: 'partially_filled', committedAmount: String(5n * USDC) });
    await waitFor(
      'the fill fails',
      async () =>
        (await get(h, `/v2/clob/fills/${ask.fills[0].id}`)).json().fill.status === 'failed_insufficient_balance' ? true : undefined,
      20_000,
    );
    // The 10 come back to the ask, which rests for its whole quantity again, first in its level.
    const order = await waitFor(
      'the ask restored',
      async () => {
        const o = (await get(h, `/v2/clob/orders/${ask.orderId}`)).json().order as Json;
        return o.remainingQuantity === String(15n * USDC) ? o : undefined;
      },
      10_000,
    );
    expect(order).toMatchObject({ status: 'open', committedAmount: String(15n * USDC) });
    const book = (await get(h, `/v2/clob/markets/${market.id}/orderbook`)).json();
    expect(book.yes.asks).toEqual([{ price: 5000, size: String(15n * USDC) }]);
    const row = await h.daemon.db.db
      .selectFrom('clob_fills')
      .select(['give_back', 'give_back_order_id'])
      .where('id', '=', ask.fills[0].id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ give_back: 'restored', give_back_order_id: ask.orderId });
    const b = (await get(h, `/v2/clob/account/balances?pubkey=${tk}`)).json() as Json;
    expect(b.markets[0]).toMatchObject({ yesTokens: String(20n * USDC), committedYesTokens: String(15n * USDC) });
    // An operator cannot re-drive that fill any more: the ask would be filled twice.
    const redrive = await h.app.inject({
      method: 'POST',
      url: `/v2/admin/clob/fills/${ask.fills[0].id}/retry`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(redrive.statusCode).toBe(409);
    expect(redrive.json()).toMatchObject({ error: 'FILL_GIVEN_BACK' });
  }, 60_000);
});
