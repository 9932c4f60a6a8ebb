/**
 * A postOnly order can never pay a taker fee, so it needs only the amount it commits (issue 25
 * part 5): a postOnly bid committing 6_000_000 is accepted with exactly 6_000_000 deposited,
 * where a plain limit bid needs 6_015_002 (its taker fee and slack unit).
 */
import type { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClobMarket, depositedTrader, openClobHarness, post, signedOrder, type CHarness } from './family-c.harness.js';

let h: CHarness;
let market: string;
let bidder: Keypair;

beforeAll(async () => {
  h = await openClobHarness();
  market = (await createClobMarket(h)).marketPubkey;
  bidder = await depositedTrader(h, 6_000_000n);
}, 60_000);
afterAll(async () => {
  await h?.close();
});

describe('postOnly funds through the route', () => {
  it('refuses a plain limit bid that would need the taker fee, accepts the postOnly one with exactly its commitment', async () => {
    const bid = { market, side: 'buy', outcome: 'yes', priceBps: 6000, quantity: 10_000_000n } as const;
    const plain = await post(h, '/v2/clob/orders', signedOrder(bidder, bid));
    expect(plain.statusCode, plain.body).toBe(400);
    expect(plain.json()).toMatchObject({ error: 'INSUFFICIENT_BALANCE', available: '6000000', required: '6015002' });

    const postOnly = await post(h, '/v2/clob/orders', signedOrder(bidder, { ...bid, postOnly: true }));
    expect(postOnly.statusCode, postOnly.body).toBe(200);
    expect(postOnly.json()).toMatchObject({ status: 'open', committedAmount: '6000000' });
  });
});
