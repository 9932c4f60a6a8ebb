// Issue 8 item 4: GET /v2/payments/{txHash} answers what an honoured payment led to, so a client
// that lost the step-2 answer and got "already processed" on resubmitting learns the delivery.
import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { PublicKey, SystemProgram, type Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOutboundByKey } from '../../db/repositories/outbound-transactions.repository.js';
import { awaitOutbound } from '../../src/services/outbound/outbound-wait.js';
import {
  admin,
  createHarness,
  createMarket,
  fundedUser,
  send,
  tokenBalance,
  transfer,
  xPayment,
  type Harness,
} from './family-a.harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: { FAMILY_A_CREATION_FEE_USDC: '600' } });
  await awaitOutbound(h.ctx.db, (await findOutboundByKey(h.ctx.db, 'a-platform-accounts'))!.id, 10_000);
});
afterAll(async () => {
  await h?.close();
});

const post = (url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  h.t.app.inject({ method: 'POST', url, payload, headers });
const status = (txHash: string) => h.t.app.inject({ method: 'GET', url: `/v2/payments/${txHash}` });

async function buy(slug: string, user: Keypair, amount: number, side: 'YES' | 'NO') {
  const wallet = user.publicKey.toBase58();
  const q = (await post(`/v2/markets/${slug}/trade/buy`, { wallet, amount, side })).json();
  const sig = await transfer(h, user, h.usdcMint, q.payment.payTo, BigInt(q.payment.accepts[0].amount));
  const header = xPayment({
    txHash: sig,
    amount,
    payer: wallet,
    payTo: q.payment.payTo,
    asset: h.usdcMint,
    quoteIssuedAt: q.quote.issuedAt,
  });
  const res = await post(`/v2/markets/${slug}/trade/buy`, { wallet, amount, side }, { 'x-payment': header });
  expect(res.statusCode, res.body).toBe(200);
  return { sig, header, data: res.json().data };
}

describe('Family A payment status', () => {
  it('answers a buy, a sell and a claim with their status and platform signatures; a resubmission points to it', async () => {
    const m = await createMarket(h, { marketLimit: 100_000 }); // target price 0.0005 USDC per token
    const alice = await fundedUser(h);
    const aw = alice.publicKey.toBase58();
    const b = await buy(m.slug, alice, 2, 'YES'); // 2 USDC → 4,000 tokens

    const res = await status(b.sig);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      txHash: b.sig,
      kind: 'buy',
      slug: m.slug,
      wallet: aw,
      side: 'YES',
      paidAmount: 2,
      deliverAmount: 4000,
      status: 'confirmed',
      platformSignatures: [b.data.tokenTransferTxHash],
      error: null,
    });

    // The resubmitted step 2 is refused and names the lookup.
    const again = await post(`/v2/markets/${m.slug}/trade/buy`, { wallet: aw, amount: 2, side: 'YES' }, { 'x-payment': b.header });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.message).toBe(`Transaction ${b.sig} was already processed; GET /v2/payments/${b.sig} answers what it led to`);

    // Sell 1,000 tokens back: 0.5 USDC.
    const sq = (await post(`/v2/markets/${m.slug}/trade/sell`, { wallet: aw, tokenAmount: 1000, side: 'YES' })).json();
    const tsig = await transfer(h, alice, m.cas.Yes, sq.payment.sendTo, 1_000_000_000n);
    const sold = await post(
      `/v2/markets/${m.slug}/trade/sell`,
      { wallet: aw, tokenAmount: 1000, side: 'YES' },
      {
        'x-payment': xPayment({
          txHash: tsig,
          amount: 1000,
          payer: aw,
          payTo: sq.payment.sendTo,
          asset: m.cas.Yes,
          quoteIssuedAt: sq.quote.issuedAt,
        }),
      },
    );
    expect(sold.statusCode, sold.body).toBe(200);
    expect((await status(tsig)).json().data).toMatchObject({
      kind: 'sell',
      paidAmount: 1000,
      deliverAmount: 0.5,
      status: 'confirmed',
      platformSignatures: [sold.json().data.usdcPayoutTxHash],
    });

    // Resolve YES and claim the remaining 3,000 tokens: 3,000 × 100,000 / 1e8 = 3 USDC.
    expect((await post(`/v2/admin/markets/${m.slug}/resolve`, { outcome: 'YES' }, admin)).statusCode).toBe(200);
    const info = (await post(`/v2/markets/${m.slug}/claim`, { wallet: aw })).json().data;
    // Only 1.5 USDC was paid in (2 − 0.5 sold back): the 3 USDC payout needs the platform's reserve.
    await h.ledger.mintUsdc(info.nextStep.sendTo, 5_000_000n);
    const csig = await transfer(h, alice, m.cas.Yes, info.nextStep.sendTo, 3_000_000_000n);
    const claimed = await post(`/v2/markets/${m.slug}/claim/confirm`, { wallet: aw, transferTxHash: csig });
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(await tokenBalance(h, aw, m.cas.Yes)).toBe(0n);
    expect((await status(csig)).json().data).toMatchObject({
      kind: 'claim',
      side: 'YES',
      paidAmount: 3000,
      deliverAmount: 3,
      status: 'confirmed',
      platformSignatures: [claimed.json().data.usdcPayoutTxHash],
    });
  });

  it('answers a paid market creation with the setup transaction', async () => {
    const creator = await fundedUser(h);
    const wallet = creator.publicKey.toBase58();
    const body = {
      name: 'Will the status lookup work?',
      description: 'Created by paying the fee',
      end_date: '2031-06-01T00:00:00Z',
      options: ['Yes', 'No'],
      creator_wallet: wallet,
    };
    const req = (await post('/v2/markets', body)).json();
    const platform = new PublicKey(req.payment.payTo);
    const mint = new PublicKey(h.usdcMint);
    const paid = await send(h.ledger, creator, [
      createTransferCheckedInstruction(
        getAssociatedTokenAddressSync(mint, creator.publicKey),
        mint,
        getAssociatedTokenAddressSync(mint, platform, true),
        creator.publicKey,
        600_000_000n,
        6,
      ),
      SystemProgram.transfer({ fromPubkey: creator.publicKey, toPubkey: platform, lamports: 300_000_000 }),
    ]);
    const created = await post(
      '/v2/markets',
      { ...body, marketId: req.marketId },
      { 'x-payment': xPayment({ txHash: paid, amount: 600, payer: wallet, payTo: req.payment.payTo, asset: h.usdcMint }) },
    );
    expect(created.statusCode, created.body).toBe(201);
    const setup = await findOutboundByKey(h.ctx.db, `a-setup-${req.marketId}`);
    const res = await status(paid);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      kind: 'create',
      slug: req.slug,
      wallet,
      side: null,
      paidAmount: 600,
      deliverAmount: 0,
      status: 'confirmed',
      platformSignatures: [setup!.signature],
    });
  });

  it("answers 404 for an unknown payment and 400 for a malformed signature, in Family A's envelope", async () => {
    const unknown = await status('5'.repeat(87));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ success: false, error: { code: 'PAYMENT_NOT_FOUND' } });
    const bad = await status('not-a-signature');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
  });
});
