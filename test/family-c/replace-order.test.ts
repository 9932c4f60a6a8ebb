/**
 * Issue 30, replace: `POST /v2/clob/orders/{id}/replace` cancels a resting order and places the
 * new one in one matcher operation (the old order's funds pay for the new one); refused — the new
 * order not placed, the old one still resting at its place in the queue — when the new order is
 * refused, the old one no longer rests, or owner or market differ; bad input answers a 4xx.
 */
import type { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelOrderText } from '../../src/domain/signed-message.js';
import { signText } from '../helpers/sign.js';
import {
  createClobMarket,
  depositedTrader,
  get,
  openClobHarness,
  place,
  post,
  signedOrder,
  USDC,
  type CHarness,
  type OrderSpec,
} from './family-c.harness.js';
import { WsClient, wsUrl, type Frame } from './ws-client.js';

let h: CHarness;
beforeAll(async () => {
  h = await openClobHarness();
});
afterAll(async () => h?.close());

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const replaceBody = (signer: Keypair, oldId: string, owner: Keypair, spec: OrderSpec): Record<string, unknown> => ({
  cancelSignature: b64(signText(signer, cancelOrderText(oldId))),
  ...signedOrder(owner, spec),
});
const replace = (oldId: string, body: unknown) => post(h, `/v2/clob/orders/${oldId}/replace`, body);
const orderOf = async (id: string) => (await get(h, `/v2/clob/orders/${id}`)).json().order;

describe('replace', () => {
  it('places the new order with the old one’s funds, or changes nothing when the new order is refused', async () => {
    const market = await createClobMarket(h);
    const maker = await depositedTrader(h, 12n * USDC);
    const taker = await depositedTrader(h, 20n * USDC);
    const bid = (priceBps: number, quantity: bigint): OrderSpec => ({
      market: market.marketPubkey,
      side: 'buy',
      outcome: 'yes',
      priceBps,
      quantity,
    });
    const first = await place(h, maker, bid(4000, 20n * USDC)); // holds 8 of the 12 USDC
    const second = await place(h, maker, bid(4000, 2n * USDC));

    const tooDear = await replace(first.orderId, replaceBody(maker, first.orderId, maker, bid(9000, 20n * USDC)));
    expect(tooDear.statusCode).toBe(400);
    expect(tooDear.json().error).toBe('INSUFFICIENT_BALANCE');
    expect((await orderOf(first.orderId)).status).toBe('open');
    // Still first in its level's queue: a taker meets it before the order placed after it.
    const take = await place(h, taker, { market: market.marketPubkey, side: 'buy', outcome: 'no', priceBps: 6000, quantity: USDC });
    expect(take.fills.map((f: { makerOrderId: string }) => f.makerOrderId)).toEqual([first.orderId]);

    const ws = await WsClient.open(wsUrl(h.daemon.url!, 'user'));
    expect((await ws.command({ type: 'subscribe', pubkey: maker.publicKey.toBase58() })).event).toBe('subscribed');
    // 9 USDC (plus the taker fee it could pay) fits only with the old order's 7.6 released.
    const res = await replace(first.orderId, replaceBody(maker, first.orderId, maker, bid(4500, 20n * USDC)));
    expect(res.statusCode).toBe(200);
    const { cancelledOrderId, placement } = res.json();
    expect(cancelledOrderId).toBe(first.orderId);
    expect(placement).toMatchObject({ status: 'open', remainingQuantity: String(20n * USDC), fills: [] });
    expect(await orderOf(first.orderId)).toMatchObject({ status: 'cancelled', cancelReason: 'user', filledQuantity: String(USDC) });
    const book = (await get(h, `/v2/clob/markets/${market.id}/orderbook`)).json();
    expect(book.yes.bids).toEqual([
      { price: 4500, size: String(20n * USDC) },
      { price: 4000, size: String(2n * USDC) },
    ]);
    expect((await orderOf(second.orderId)).status).toBe('open');
    // The user channel tells both: the old order cancelled, the new one placed.
    const event = (name: string, id: string) => (f: Frame | string) => typeof f === 'object' && f.event === name && f.order?.id === id;
    expect(((await ws.waitFor(event('order:cancelled', first.orderId), 10_000)) as Frame).order.cancelReason).toBe('user');
    await ws.waitFor(event('order:placed', placement.orderId), 10_000);
    ws.close();
  }, 90_000);

  it('refuses when the old order no longer rests, or owner or market differ, and places nothing', async () => {
    const market = await createClobMarket(h);
    const elsewhere = await createClobMarket(h);
    const maker = await depositedTrader(h, 20n * USDC);
    const other = await depositedTrader(h, 20n * USDC);
    const spec = (m = market.marketPubkey): OrderSpec => ({ market: m, side: 'buy', outcome: 'yes', priceBps: 3000, quantity: USDC });
    const resting = await place(h, maker, spec());
    const gone = await place(h, maker, spec());
    await post(h, `/v2/clob/orders/${gone.orderId}/cancel`, {
      pubkey: maker.publicKey.toBase58(),
      signature: b64(signText(maker, cancelOrderText(gone.orderId))),
    });

    const cases: Array<[string, string, Record<string, unknown>, number, string]> = [
      ['cancelled before', gone.orderId, replaceBody(maker, gone.orderId, maker, spec()), 409, 'ORDER_NOT_RESTING'],
      ['another owner', resting.orderId, replaceBody(maker, resting.orderId, other, spec()), 400, 'REPLACE_MISMATCH'],
      [
        'another market',
        resting.orderId,
        replaceBody(maker, resting.orderId, maker, spec(elsewhere.marketPubkey)),
        400,
        'REPLACE_MISMATCH',
      ],
      ['cancel signed by another key', resting.orderId, replaceBody(other, resting.orderId, maker, spec()), 403, 'INVALID_SIGNATURE'],
      ['cancel of another id', resting.orderId, replaceBody(maker, gone.orderId, maker, spec()), 403, 'INVALID_SIGNATURE'],
      ['unknown order', '6f1c1e4e-0000-4000-8000-000000000000', replaceBody(maker, resting.orderId, maker, spec()), 404, 'ORDER_NOT_FOUND'],
      ['not a uuid', 'nope', replaceBody(maker, resting.orderId, maker, spec()), 404, 'ORDER_NOT_FOUND'],
    ];
    for (const [what, id, body, status, code] of cases) {
      const res = await replace(id, body);
      expect(res.statusCode, what).toBe(status);
      expect(res.json(), what).toMatchObject({ error: code, message: expect.any(String) });
      // Nothing placed: the same signed order is still placeable (its nonce unused).
      const again = await post(h, '/v2/clob/orders', { orderMessage: body.orderMessage, signature: body.signature });
      expect(again.statusCode, what).toBe(200);
    }
    expect((await orderOf(resting.orderId)).status).toBe('open');
    const good = replaceBody(maker, resting.orderId, maker, spec());
    for (const [what, body] of [
      ['no cancelSignature', { ...good, cancelSignature: undefined }],
      ['no orderMessage', { ...good, orderMessage: undefined }],
      ['bad side', { ...good, orderMessage: { ...(good.orderMessage as object), side: 7 } }],
      ['quantity as number', { ...good, orderMessage: { ...(good.orderMessage as object), quantity: 5 } }],
      ['unknown timeInForce', { ...good, timeInForce: 'day' }],
    ] as const) {
      const res = await replace(resting.orderId, body);
      expect(res.statusCode, what).toBe(400);
      expect(res.json(), what).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    }
    expect((await orderOf(resting.orderId)).status).toBe('open');
  }, 90_000);
});
