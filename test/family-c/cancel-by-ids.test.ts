/**
 * Issue 30, cancel by ids: `POST /v2/clob/orders/cancel` cancels the named resting orders of the
 * signer, says why each other id was not cancelled, works once per proof, and refuses bad input
 * with a 4xx in the Family C envelope.
 */
import { randomUUID } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelOrdersText } from '../../src/domain/signed-message.js';
import { signText } from '../helpers/sign.js';
import { createClobMarket, depositedTrader, get, openClobHarness, place, post, USDC, type CHarness } from './family-c.harness.js';

let h: CHarness;
beforeAll(async () => {
  h = await openClobHarness();
});
afterAll(async () => h?.close());

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const now = () => Math.floor(Date.now() / 1000);
const proof = (signer: Keypair, orderIds: string[], timestamp = now(), pubkey = signer.publicKey.toBase58()) => ({
  pubkey,
  orderIds,
  timestamp,
  signature: b64(signText(signer, cancelOrdersText(orderIds, timestamp))),
});
const statusOf = async (id: string) => (await get(h, `/v2/clob/orders/${id}`)).json().order;

describe('cancel by ids', () => {
  it('cancels the signer’s resting orders, says why for the others, and works once', async () => {
    const market = await createClobMarket(h);
    const maker = await depositedTrader(h, 50n * USDC);
    const other = await depositedTrader(h, 50n * USDC);
    const bid = (who: Keypair, priceBps: number) =>
      place(h, who, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps, quantity: 2n * USDC });
    const [a, b, kept] = [await bid(maker, 4000), await bid(maker, 4100), await bid(maker, 4200)];
    const theirs = await bid(other, 3000);
    const unknown = randomUUID();

    const ids = [b.orderId, theirs.orderId, unknown, a.orderId];
    const signed = proof(maker, ids);
    const res = await post(h, '/v2/clob/orders/cancel', signed);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      cancelled: [b.orderId, a.orderId],
      notCancelled: [
        { orderId: theirs.orderId, reason: 'not_owner' },
        { orderId: unknown, reason: 'not_found' },
      ],
    });
    expect(await statusOf(a.orderId)).toMatchObject({ status: 'cancelled', cancelReason: 'user' });
    expect((await statusOf(theirs.orderId)).status).toBe('open');
    expect((await statusOf(kept.orderId)).status).toBe('open');

    // The same proof again cancels nothing, even an order placed since.
    const replay = await post(h, '/v2/clob/orders/cancel', signed);
    expect(replay.json().cancelled).toEqual([]);
    expect(replay.json().notCancelled.map((n: { reason: string }) => n.reason)).toEqual(ids.map(() => 'proof_used'));

    // A new proof: an order cancelled before reads not_resting, the one still resting is cancelled.
    const again = await post(h, '/v2/clob/orders/cancel', proof(maker, [a.orderId, kept.orderId], now() + 1));
    expect(again.json()).toEqual({ cancelled: [kept.orderId], notCancelled: [{ orderId: a.orderId, reason: 'not_resting' }] });
    const book = (await get(h, `/v2/clob/markets/${market.id}/orderbook`)).json();
    expect(book.yes.bids).toEqual([{ price: 3000, size: '2000000' }]);
  }, 60_000);

  it('refuses bad input with a 4xx in the Family C envelope', async () => {
    const owner = Keypair.generate();
    const stranger = Keypair.generate();
    const id = randomUUID();
    const cases: Array<[string, unknown, number, string?]> = [
      ['duplicate ids', proof(owner, [id, id]), 400, 'DUPLICATE_ORDER_ID'],
      ['uppercase id', proof(owner, [id.toUpperCase()]), 400],
      ['no ids', proof(owner, []), 400],
      [
        '101 ids',
        proof(
          owner,
          Array.from({ length: 101 }, () => randomUUID()),
        ),
        400,
      ],
      ['another key signed', proof(stranger, [id], now(), owner.publicKey.toBase58()), 403, 'INVALID_SIGNATURE'],
      ['stale timestamp', proof(owner, [id], now() - 120), 403, 'SIGNATURE_EXPIRED'],
      ['future timestamp', proof(owner, [id], now() + 120), 403, 'SIGNATURE_EXPIRED'],
      ['not a pubkey', { ...proof(owner, [id]), pubkey: 'nope' }, 400],
      ['no signature', { ...proof(owner, [id]), signature: undefined }, 400],
      ['timestamp as text', { ...proof(owner, [id]), timestamp: 'soon' }, 400],
      ['huge timestamp', proof(owner, [id], 1e300), 403, 'SIGNATURE_EXPIRED'],
    ];
    for (const [what, body, status, code] of cases) {
      const res = await post(h, '/v2/clob/orders/cancel', body);
      expect(res.statusCode, what).toBe(status);
      expect(res.json(), what).toMatchObject({ error: code ?? expect.any(String), message: expect.any(String) });
    }
  }, 30_000);
});
