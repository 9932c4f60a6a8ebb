// Issue 8 item 1: quotes are unauthenticated, so a third party can ask one in a victim's name.
// A payment is honoured only at a quote for exactly the amount it moved: the victim's 50 USDC
// payment presented with someone's 0.01 quote is refused WITHOUT being consumed, and the victim's
// own quote still claims it in full. Same for sells.
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, createMarket, fundedUser, tokenBalance, transfer, xPayment, type Harness } from './family-a.harness.js';

let h: Harness;
let market: Awaited<ReturnType<typeof createMarket>>;
beforeAll(async () => {
  h = await createHarness();
  market = await createMarket(h, { marketLimit: 100_000 }); // target price 0.0005 USDC: 1 USDC buys 2,000 tokens
});
afterAll(async () => {
  await h?.close();
});

const post = (path: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  h.t.app.inject({ method: 'POST', url: `/v2/markets/${market.slug}/trade/${path}`, payload, headers });

async function quote(path: 'buy' | 'sell', payload: Record<string, unknown>) {
  const res = await post(path, payload);
  expect(res.statusCode, res.body).toBe(402);
  return res.json();
}

describe('Family A quote hijack', () => {
  it("buy: the victim's 50 USDC payment presented with a third party's 0.01 quote is refused and stays claimable", async () => {
    const victim = await fundedUser(h);
    const vw = victim.publicKey.toBase58();
    // The third party (no key needed) asks a 0.01 quote in the victim's name.
    const tiny = await quote('buy', { wallet: vw, amount: 0.01, side: 'YES' });
    // The victim asks and pays 50 USDC.
    const own = await quote('buy', { wallet: vw, amount: 50, side: 'YES' });
    const sig = await transfer(h, victim, h.usdcMint, own.payment.payTo, 50_000_000n);

    // The third party presents the victim's txHash with the 0.01 quote.
    const hijack = await post(
      'buy',
      { wallet: vw, amount: 0.01, side: 'YES' },
      {
        'x-payment': xPayment({
          txHash: sig,
          amount: 0.01,
          payer: vw,
          payTo: tiny.payment.payTo,
          asset: h.usdcMint,
          quoteIssuedAt: tiny.quote.issuedAt,
        }),
      },
    );
    expect(hijack.statusCode, hijack.body).toBe(402); // was 200: 20 tokens for 50 USDC
    expect(hijack.json().error.code).toBe('PAYMENT_FAILED');
    expect(hijack.json().error.message).toMatch(/amount differs from the quote: moved 50000000 raw units, the quote is for exactly 10000/);
    // Recorded, not refunded: the victim's own 50 USDC quote can still honour it (issue 8 item 2).
    expect(hijack.json().paymentOutcome.transfers).toMatchObject([{ amount: 50, state: 'held', sender: vw }]);
    expect(await tokenBalance(h, vw, market.cas.Yes)).toBe(0n);

    // The victim's own step 2 is honoured in full: 50 USDC / 0.0005 = 100,000 tokens = 100_000_000_000 raw.
    const mine = await post(
      'buy',
      { wallet: vw, amount: 50, side: 'YES' },
      {
        'x-payment': xPayment({
          txHash: sig,
          amount: 50,
          payer: vw,
          payTo: own.payment.payTo,
          asset: h.usdcMint,
          quoteIssuedAt: own.quote.issuedAt,
        }),
      },
    );
    expect(mine.statusCode, mine.body).toBe(200); // was 400 "already processed"
    expect(mine.json().data).toMatchObject({ amount: 50, tokenAmount: 100_000, deliveryStatus: 'confirmed' });
    expect(await tokenBalance(h, vw, market.cas.Yes)).toBe(100_000_000_000n);
  });

  it("sell: the victim's 5,000-token transfer presented with a third party's 0.01-token quote is refused and stays claimable", async () => {
    const victim = await fundedUser(h);
    const vw = victim.publicKey.toBase58();
    const b = await quote('buy', { wallet: vw, amount: 10, side: 'NO' });
    const bsig = await transfer(h, victim, h.usdcMint, b.payment.payTo, 10_000_000n);
    const bought = await post(
      'buy',
      { wallet: vw, amount: 10, side: 'NO' },
      {
        'x-payment': xPayment({
          txHash: bsig,
          amount: 10,
          payer: vw,
          payTo: b.payment.payTo,
          asset: h.usdcMint,
          quoteIssuedAt: b.quote.issuedAt,
        }),
      },
    );
    expect(bought.statusCode, bought.body).toBe(200); // 20,000 NO tokens

    const tiny = await quote('sell', { wallet: vw, tokenAmount: 0.01, side: 'NO' }); // pays 5 raw USDC
    const own = await quote('sell', { wallet: vw, tokenAmount: 5000, side: 'NO' });
    const usdcBefore = await tokenBalance(h, vw, h.usdcMint);
    const sig = await transfer(h, victim, market.cas.No, own.payment.sendTo, 5_000_000_000n);

    const hijack = await post(
      'sell',
      { wallet: vw, tokenAmount: 0.01, side: 'NO' },
      {
        'x-payment': xPayment({
          txHash: sig,
          amount: 0.01,
          payer: vw,
          payTo: tiny.payment.sendTo,
          asset: market.cas.No,
          quoteIssuedAt: tiny.quote.issuedAt,
        }),
      },
    );
    expect(hijack.statusCode, hijack.body).toBe(402); // was 200: 0.000005 USDC for 5,000 tokens
    expect(hijack.json().error.code).toBe('PAYMENT_FAILED');
    expect(hijack.json().error.message).toMatch(/amount differs from the quote/);
    expect(await tokenBalance(h, vw, h.usdcMint)).toBe(usdcBefore);

    // 5,000 tokens × 0.0005 = 2.5 USDC.
    const mine = await post(
      'sell',
      { wallet: vw, tokenAmount: 5000, side: 'NO' },
      {
        'x-payment': xPayment({
          txHash: sig,
          amount: 5000,
          payer: vw,
          payTo: own.payment.sendTo,
          asset: market.cas.No,
          quoteIssuedAt: own.quote.issuedAt,
        }),
      },
    );
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().data).toMatchObject({ usdcPayout: 2.5, deliveryStatus: 'confirmed' });
    expect((await tokenBalance(h, vw, h.usdcMint)) - usdcBefore).toBe(2_500_000n);
  });

  it("a payment cannot be presented for another wallet's quote", async () => {
    const victim = await fundedUser(h);
    const thief = Keypair.generate().publicKey.toBase58();
    const own = await quote('buy', { wallet: victim.publicKey.toBase58(), amount: 1, side: 'YES' });
    const theirs = await quote('buy', { wallet: thief, amount: 1, side: 'YES' });
    const sig = await transfer(h, victim, h.usdcMint, own.payment.payTo, 1_000_000n);
    const res = await post(
      'buy',
      { wallet: thief, amount: 1, side: 'YES' },
      {
        'x-payment': xPayment({
          txHash: sig,
          amount: 1,
          payer: thief,
          payTo: theirs.payment.payTo,
          asset: h.usdcMint,
          quoteIssuedAt: theirs.quote.issuedAt,
        }),
      },
    );
    expect(res.statusCode, res.body).toBe(402);
    expect(res.json().error.message).toMatch(/payer mismatch/);
    expect(await tokenBalance(h, thief, market.cas.Yes)).toBe(0n);
  });
});
