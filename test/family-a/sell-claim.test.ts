// Sell back, resolve, claim and confirm on the real stack; every claim refusal.
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, createHarness, createMarket, fundedUser, tokenBalance, transfer, xPayment, type Harness } from './family-a.harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

async function buy(slug: string, user: Keypair, amount: number, side: 'YES' | 'NO') {
  const wallet = user.publicKey.toBase58();
  const q = (await h.t.app.inject({ method: 'POST', url: `/v2/markets/${slug}/trade/buy`, payload: { wallet, amount, side } })).json();
  const sig = await transfer(h, user, h.usdcMint, q.payment.payTo, BigInt(q.payment.accepts[0].amount));
  const res = await h.t.app.inject({
    method: 'POST',
    url: `/v2/markets/${slug}/trade/buy`,
    payload: { wallet, amount, side },
    headers: {
      'x-payment': xPayment({
        txHash: sig,
        amount,
        payer: wallet,
        payTo: q.payment.payTo,
        asset: h.usdcMint,
        quoteIssuedAt: q.quote.issuedAt,
      }),
    },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const post = (url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  h.t.app.inject({ method: 'POST', url, payload, headers });

describe('Family A sell and claim', () => {
  it('sells part back, then after resolution claims once and receives tokens × marketLimit / 1e8', async () => {
    const m = await createMarket(h, { marketLimit: 100_000 });
    const alice = await fundedUser(h);
    const bob = await fundedUser(h);
    const aw = alice.publicKey.toBase58();
    await buy(m.slug, alice, 10, 'YES'); // 20,000 YES tokens
    await buy(m.slug, bob, 10, 'NO');

    // Sell 5,000 tokens back at 0.0005: 2.5 USDC.
    const s1 = await post(`/v2/markets/${m.slug}/trade/sell`, { wallet: aw, tokenAmount: 5000, side: 'YES' });
    expect(s1.statusCode).toBe(402);
    const sq = s1.json();
    expect(sq.error.message).toBe('Token transfer required to execute sell');
    expect(sq.payment).toMatchObject({
      x402Version: 1,
      tokenMint: m.cas.Yes,
      sendTo: m.metadata.option_wallets.Yes,
      tokenAmount: 5000,
      tokenAmountAtomic: '5000000000',
    });
    expect(sq.quote).toMatchObject({ side: 'YES', tokenAmount: 5000, usdcPayout: 2.5, targetPrice: 0.0005, ttlMs: 120000 });
    const usdcBefore = await tokenBalance(h, aw, h.usdcMint);
    const tsig = await transfer(h, alice, m.cas.Yes, sq.payment.sendTo, 5_000_000_000n);
    const s2 = await post(
      `/v2/markets/${m.slug}/trade/sell`,
      { wallet: aw, tokenAmount: 5000, side: 'YES' },
      {
        'x-payment': xPayment({
          txHash: tsig,
          amount: 5000,
          payer: aw,
          payTo: sq.payment.sendTo,
          asset: m.cas.Yes,
          quoteIssuedAt: sq.quote.issuedAt,
        }),
      },
    );
    expect(s2.statusCode, s2.body).toBe(200);
    expect(s2.json().data).toMatchObject({ action: 'sell', usdcPayout: 2.5, deliveryStatus: 'confirmed' });
    expect((await tokenBalance(h, aw, h.usdcMint)) - usdcBefore).toBe(2_500_000n);

    // Not resolved yet.
    const early = await post(`/v2/markets/${m.slug}/claim`, { wallet: aw });
    expect(early.statusCode).toBe(400);
    expect(early.json().error.code).toBe('MARKET_NOT_RESOLVED');

    const resolved = await post(`/v2/admin/markets/${m.slug}/resolve`, { outcome: 'YES' }, admin);
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json().data).toMatchObject({ status: 'resolved', outcome: 'Yes', resolved: true });

    // Bob holds only losing tokens.
    const none = await post(`/v2/markets/${m.slug}/claim`, { wallet: bob.publicKey.toBase58() });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.code).toBe('NO_CLAIMABLE_BALANCE');

    const info = await post(`/v2/markets/${m.slug}/claim`, { wallet: aw });
    expect(info.statusCode, info.body).toBe(200);
    const d = info.json().data;
    expect(d).toMatchObject({
      slug: m.slug,
      wallet: aw,
      outcome: 'Yes',
      userTokenBalance: 15000,
      marketLimit: 100000,
      payoutUsdc: 15,
      tokenMint: m.cas.Yes,
    });
    expect(d.nextStep).toMatchObject({
      action: 'transferTokens',
      tokenMint: m.cas.Yes,
      tokensToTransfer: 15000,
      confirmEndpoint: `/${m.slug}/claim/confirm`,
    });

    // A partial transfer is refused, and its 14,000 tokens are credited to Alice's claim (issue 8).
    const partial = await transfer(h, alice, m.cas.Yes, d.nextStep.sendTo, 14_000_000_000n);
    const p = await post(`/v2/markets/${m.slug}/claim/confirm`, { wallet: aw, transferTxHash: partial });
    expect(p.statusCode).toBe(402);
    expect(p.json().error).toMatchObject({ code: 'PAYMENT_FAILED' });
    expect(p.json().error.message).toMatch(/^Token transfer verification failed: partial transfer.* is credited to this wallet's claim/);
    expect(p.json().paymentOutcome.transfers).toMatchObject([{ state: 'credited', amount: 14000, sender: aw }]);

    // The rest in one transfer empties the wallet: the claim pays for 1,000 + the credited 14,000
    // tokens: 15,000 × 100,000 / 1e8 = 15 USDC (it used to pay 1 USDC and keep the 14,000).
    const rest = await transfer(h, alice, m.cas.Yes, d.nextStep.sendTo, 1_000_000_000n);
    const before = await tokenBalance(h, aw, h.usdcMint);
    const [c1, c2] = await Promise.all([
      post(`/v2/markets/${m.slug}/claim/confirm`, { wallet: aw, transferTxHash: rest }),
      post(`/v2/markets/${m.slug}/claim/confirm`, { wallet: aw, transferTxHash: rest }),
    ]);
    const okRes = [c1, c2].find((r) => r.statusCode === 200)!;
    const refused = [c1, c2].find((r) => r.statusCode !== 200)!;
    expect(okRes.json().data).toMatchObject({
      outcome: 'Yes',
      payoutUsdc: 15,
      tokenAmount: 15000,
      tokenTransferTxHash: rest,
      deliveryStatus: 'confirmed',
    });
    expect(['VALIDATION_ERROR', 'ALREADY_CLAIMED']).toContain(refused.json().error.code);
    expect((await tokenBalance(h, aw, h.usdcMint)) - before).toBe(15_000_000n);
    const lookup = (await h.t.app.inject({ method: 'GET', url: `/v2/payments/${partial}` })).json().data;
    expect(lookup).toMatchObject({ kind: 'unhonoured', transfers: [{ state: 'claimed', honouredAmount: 14000 }] });

    const again = await post(`/v2/markets/${m.slug}/claim`, { wallet: aw });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('ALREADY_CLAIMED');
    expect(again.json().claim).toMatchObject({ txHash: rest });
    expect(Date.parse(again.json().claim.claimedAt)).not.toBeNaN();
    const replay = await post(`/v2/markets/${m.slug}/claim/confirm`, { wallet: aw, transferTxHash: rest });
    expect(replay.json().error.code).toBe('ALREADY_CLAIMED');
  });

  it('refuses a processed signature reused by another wallet with VALIDATION_ERROR', async () => {
    const m = await createMarket(h);
    const carol = await fundedUser(h);
    await buy(m.slug, carol, 1, 'NO');
    await post(`/v2/admin/markets/${m.slug}/resolve`, { outcome: 'NO' }, admin);
    const info = (await post(`/v2/markets/${m.slug}/claim`, { wallet: carol.publicKey.toBase58() })).json().data;
    // Nobody bought YES: the 2 USDC payout needs 1 USDC of the platform wallet's reserve.
    await h.ledger.mintUsdc(info.nextStep.sendTo, 5_000_000n);
    const sig = await transfer(h, carol, m.cas.No, info.nextStep.sendTo, 2_000_000_000n);
    const ok = await post(`/v2/markets/${m.slug}/claim/confirm`, { wallet: carol.publicKey.toBase58(), transferTxHash: sig });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ payoutUsdc: 2, deliveryStatus: 'confirmed' });
    expect(await tokenBalance(h, carol.publicKey.toBase58(), h.usdcMint)).toBe(10_000_000_000n - 1_000_000n + 2_000_000n);
    const dave = Keypair.generate().publicKey.toBase58();
    const reuse = await post(`/v2/markets/${m.slug}/claim/confirm`, { wallet: dave, transferTxHash: sig });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().error.code).toBe('VALIDATION_ERROR');
  });
});
