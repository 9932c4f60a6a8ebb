/**
 * Defence in depth behind the strict API verifier (issue 25 part 1): an order whose stored proof
 * the chain's Ed25519 program refuses (an r = 0 signature written into its row, below the API)
 * never stalls settlement. The keeper names the order, fails its fill at once (no transient
 * retry), releases the holds, cancels the order, gives the counterparty its quantity back on its
 * resting order, and settles the batch's other fill. Before this the batch was retried as a
 * node hiccup, forever, with the counterparty's hold kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderSigningText } from '../../src/domain/orderbook/index.js';
import { zeroNonceSignature } from '../helpers/sign.js';
import { createClobMarket, depositedTrader, get, place, USDC, waitFor, type CHarness } from './family-c.harness.js';
import { CLOB_DATABASES, openClobHarnessOn } from './dialect-harness.js';

let h: CHarness;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const fill = async (id: string) => (await get(h, `/v2/clob/fills/${id}`)).json().fill as Json;
const order = async (id: string) => (await get(h, `/v2/clob/orders/${id}`)).json().order as Json;
const balances = async (owner: string) => (await get(h, `/v2/clob/account/balances?pubkey=${owner}`)).json() as Json;

// On both databases (issue 31: the keeper's writers lock in one order on PostgreSQL: db/row-locks.ts).
describe.each(CLOB_DATABASES.filter((d) => d.available))('a proof the Ed25519 program refuses on $name', ({ name }) => {
  beforeAll(async () => {
    h = await openClobHarnessOn(name, {});
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it("fails that order's fill naming it, cancels it, gives the taker its quantity back, settles the other fill, and is not retried", async () => {
    const market = await createClobMarket(h);
    const m = market.marketPubkey;
    const attacker = await depositedTrader(h, 20n * USDC);
    const honestMaker = await depositedTrader(h, 20n * USDC);
    const taker = await depositedTrader(h, 20n * USDC);

    // The attacker rests a YES bid (accepted: honestly signed), then its stored proof is replaced
    // by an r = 0 signature of the same message, as if a lax verifier had let it in.
    const bad = await place(h, attacker, { market: m, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 5n * USDC });
    const row = await h.daemon.db.db.selectFrom('clob_orders').select(['message']).where('id', '=', bad.orderId).executeTakeFirstOrThrow();
    const forged = Buffer.from(zeroNonceSignature(attacker, orderSigningText(Buffer.from(row.message, 'hex')))).toString('base64');
    await h.daemon.db.db.updateTable('clob_orders').set({ signature: forged }).where('id', '=', bad.orderId).execute();
    const good = await place(h, honestMaker, { market: m, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 3n * USDC });

    // The taker buys 10 NO at 5000: complementary against the attacker's 5 (time priority), then
    // the honest maker's 3; 2 rest.
    const t = await place(h, taker, { market: m, side: 'buy', outcome: 'no', priceBps: 5000, quantity: 10n * USDC });
    const badFillId = (t.fills as Json[]).find((f) => f.makerOrderId === bad.orderId)!.id as string;
    const goodFillId = (t.fills as Json[]).find((f) => f.makerOrderId === good.orderId)!.id as string;
    expect((await order(t.orderId)).remainingQuantity).toBe(String(2n * USDC));

    const failed = await waitFor(
      'the bad fill failed',
      async () => {
        const f = await fill(badFillId);
        return f.status === 'failed' ? f : undefined;
      },
      30_000,
    );
    expect(failed.failureReason).toContain(`order ${bad.orderId}`);
    expect(failed.failureReason).toContain('InvalidSignature');
    expect(failed.retryCount).toBe(0); // failed at once, never retried as transient
    expect(
      (
        await waitFor(
          'the honest fill settled',
          async () => {
            const f = await fill(goodFillId);
            return f.status === 'settled' ? f : undefined;
          },
          30_000,
        )
      ).settleTx,
    ).toBeTruthy();

    // The taker's order rests again with the 5 given back.
    await waitFor('quantity given back to the taker', async () =>
      (await order(t.orderId)).remainingQuantity === String(7n * USDC) ? true : undefined,
    );
    const book = (await get(h, `/v2/clob/markets/${market.id}/orderbook`)).json();
    expect(book.no.bids).toEqual([{ price: 5000, size: String(7n * USDC) }]);

    // Holds released: the attacker commits nothing; the taker commits only its resting 7 NO at 5000.
    await waitFor('attacker holds released', async () =>
      (await balances(attacker.publicKey.toBase58())).withdrawable === String(20n * USDC) ? true : undefined,
    );
    const tb = await balances(taker.publicKey.toBase58());
    expect(tb.markets.find((x: Json) => x.marketId === market.id)?.committedCollateral ?? '0').toBe(String(3_500_000n));

    // The batch ended once: failed, its outbound row ended (terminal), never sent again.
    const batch = await h.daemon.db.db
      .selectFrom('clob_fills as f')
      .innerJoin('clob_settlement_batches as b', 'b.id', 'f.batch_id')
      .innerJoin('outbound_transactions as o', 'o.id', 'b.outbound_id')
      .select(['b.status as batch', 'o.status as outbound', 'o.attempts'])
      .where('f.id', '=', badFillId)
      .executeTakeFirstOrThrow();
    // Attempts: the keeper's own send, then its outbound job's one re-send, whose refusal ended it.
    expect({ ...batch, attempts: Number(batch.attempts) }).toEqual({ batch: 'failed', outbound: 'failed', attempts: 2 });

    // A bad order that still rests after its fill is cancelled through the matcher.
    const bad2 = await place(h, attacker, { market: m, side: 'buy', outcome: 'yes', priceBps: 4000, quantity: 8n * USDC });
    const row2 = await h.daemon.db.db
      .selectFrom('clob_orders')
      .select(['message'])
      .where('id', '=', bad2.orderId)
      .executeTakeFirstOrThrow();
    const forged2 = Buffer.from(zeroNonceSignature(attacker, orderSigningText(Buffer.from(row2.message, 'hex')))).toString('base64');
    await h.daemon.db.db.updateTable('clob_orders').set({ signature: forged2 }).where('id', '=', bad2.orderId).execute();
    const t2 = await place(h, honestMaker, {
      market: m,
      side: 'buy',
      outcome: 'no',
      priceBps: 6000,
      quantity: 3n * USDC,
      timeInForce: 'ioc',
    });
    const badFill2 = (t2.fills as Json[]).find((f) => f.makerOrderId === bad2.orderId)!.id as string;
    expect((await order(bad2.orderId)).remainingQuantity).toBe(String(5n * USDC));
    await waitFor('second bad fill failed', async () => ((await fill(badFill2)).status === 'failed' ? true : undefined), 30_000);
    await waitFor('bad resting order cancelled', async () => ((await order(bad2.orderId)).status === 'cancelled' ? true : undefined));
    expect((await order(bad2.orderId)).cancelReason).toBe('invalid_signature');
    expect((await get(h, `/v2/clob/markets/${market.id}/orderbook`)).json().yes.bids).toEqual([]);
    await waitFor('attacker holds released again', async () =>
      (await balances(attacker.publicKey.toBase58())).withdrawable === String(20n * USDC) ? true : undefined,
    );
  }, 120_000);
});
