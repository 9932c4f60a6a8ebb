// Family A buy over the real stack: 402 → real signed USDC transfer → X-PAYMENT → tokens delivered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, createMarket, fundedUser, tokenBalance, transfer, xPayment, type Harness } from './family-a.harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

async function quote(slug: string, wallet: string, amount: number, side = 'YES') {
  const res = await h.t.app.inject({ method: 'POST', url: `/v2/markets/${slug}/trade/buy`, payload: { wallet, amount, side } });
  expect(res.statusCode).toBe(402);
  return res.json();
}

describe('Family A buy', () => {
  it('creates a live market, answers 402, verifies the payment and delivers amount / target_price tokens', async () => {
    const market = await createMarket(h);
    expect(market.status).toBe('live');
    const user = await fundedUser(h);
    const wallet = user.publicKey.toBase58();
    const body = await quote(market.slug, wallet, 1.5);
    expect(body.error.code).toBe('PAYMENT_REQUIRED');
    expect(body.payment.x402Version).toBe(1);
    expect(body.payment.accepts[0]).toMatchObject({
      network: 'solana-localnet',
      asset: h.usdcMint,
      amount: '1500000',
      payTo: market.metadata.option_wallets.Yes,
    });
    expect(body.quote).toMatchObject({ side: 'YES', amount: 1.5, ttlMs: 120000 });
    expect(body.marketSlug).toBe(market.slug);

    const sig = await transfer(h, user, h.usdcMint, body.payment.payTo, 1_500_000n);
    const header = xPayment({
      txHash: sig,
      amount: 1.5,
      payer: wallet,
      payTo: body.payment.payTo,
      asset: h.usdcMint,
      quoteIssuedAt: body.quote.issuedAt,
    });
    const res = await h.t.app.inject({
      method: 'POST',
      url: `/v2/markets/${market.slug}/trade/buy`,
      headers: { 'x-payment': header },
      payload: { wallet, amount: 1.5, side: 'YES' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      slug: market.slug,
      action: 'buy',
      side: 'YES',
      amount: 1.5,
      paymentTxHash: sig,
      wallet,
      deliveryStatus: 'confirmed',
    });
    expect(data.tokenTransferTxHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/);
    expect(await tokenBalance(h, wallet, market.cas.Yes)).toBe(3_000_000_000n); // 1.5 / 0.0005 = 3000 tokens

    const replay = await h.t.app.inject({
      method: 'POST',
      url: `/v2/markets/${market.slug}/trade/buy`,
      headers: { 'x-payment': header },
      payload: { wallet, amount: 1.5, side: 'YES' },
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.code).toBe('VALIDATION_ERROR');
    expect(await tokenBalance(h, wallet, market.cas.Yes)).toBe(3_000_000_000n);
  });
});
