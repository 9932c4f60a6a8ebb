// POST /v2/markets paid by x402: 402 with the fee, pay it, 201 once the market is live.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awaitOutbound } from '../../src/services/outbound/outbound-wait.js';
import { findOutboundByKey } from '../../db/repositories/outbound-transactions.repository.js';
import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { PublicKey, SystemProgram } from '@solana/web3.js';
import { admin, createHarness, fundedUser, send, transfer, xPayment, type Harness } from './family-a.harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: { FAMILY_A_CREATION_FEE_USDC: '600' } });
  // The platform wallet's USDC account is created at startup.
  await awaitOutbound(h.ctx.db, (await findOutboundByKey(h.ctx.db, 'a-platform-accounts'))!.id, 10_000);
});
afterAll(async () => {
  await h?.close();
});

describe('Family A paid market creation', () => {
  it('refuses an end date in the past (400) on paid and admin creation, and records nothing', async () => {
    const wallet = (await fundedUser(h, 0n)).publicKey.toBase58();
    const before = (await h.t.app.inject({ method: 'GET', url: '/v2/markets?status=pending&limit=100' })).json().data.count;
    const past = { name: 'Already over', description: 'Ended yesterday', end_date: new Date(Date.now() - 86_400_000).toISOString(), creator_wallet: wallet };
    const paid = await h.t.app.inject({ method: 'POST', url: '/v2/markets', payload: past });
    expect(paid.statusCode).toBe(400); // before: 402 and a pending market that would trade
    expect(paid.json().error.message).toMatch(/endDate must be in the future/);
    const adm = await h.t.app.inject({ method: 'POST', url: '/v2/admin/markets', headers: admin, payload: { name: 'Admin past', description: 'd', endDate: '2001-01-01' } });
    expect(adm.statusCode).toBe(400);
    expect((await h.t.app.inject({ method: 'GET', url: '/v2/markets?status=pending&limit=100' })).json().data.count).toBe(before);
  });

  it('answers 402 with the creation fee, then 201 with a live market after payment', async () => {
    const creator = await fundedUser(h);
    const wallet = creator.publicKey.toBase58();
    const body = { name: 'Will the x402 market work?', description: 'Created by paying the fee', end_date: '2031-06-01T00:00:00Z', options: ['Yes', 'No'], creator_wallet: wallet, tags: ['meta'] };
    const r1 = await h.t.app.inject({ method: 'POST', url: '/v2/markets', payload: body });
    expect(r1.statusCode).toBe(402);
    const req = r1.json();
    expect(req.error.code).toBe('PAYMENT_REQUIRED');
    expect(req.payment.accepts[0]).toMatchObject({ asset: h.usdcMint, amount: '600000000', network: 'solana-localnet' });
    expect(req.payment.accepts[1]).toMatchObject({ asset: 'SOL', amount: '300000000' });
    expect(req.payment.windowSeconds).toBe(300);
    expect(req.slug).toBe('will-the-x402-market-work');
    expect(req.optionWallets.Yes).toBeTruthy();
    const listed = (await h.t.app.inject({ method: 'GET', url: '/v2/markets?status=pending' })).json().data;
    expect(listed.markets.map((m: { slug: string }) => m.slug)).toContain(req.slug);

    const short = await transfer(h, creator, h.usdcMint, req.payment.payTo, 599_999_999n);
    const hdr = (sig: string) => xPayment({ txHash: sig, amount: 600, payer: wallet, payTo: req.payment.payTo, asset: h.usdcMint });
    const r2 = await h.t.app.inject({ method: 'POST', url: '/v2/markets', headers: { 'x-payment': hdr(short) }, payload: { ...body, marketId: req.marketId } });
    expect(r2.statusCode).toBe(402);
    expect(r2.json().error.message).toMatch(/amount short/);

    // The USDC part alone is not enough: the SOL part must be in the same transaction.
    const usdcOnly = await transfer(h, creator, h.usdcMint, req.payment.payTo, 600_000_000n);
    const r2b = await h.t.app.inject({ method: 'POST', url: '/v2/markets', headers: { 'x-payment': hdr(usdcOnly) }, payload: { ...body, marketId: req.marketId } });
    expect(r2b.statusCode).toBe(402);
    expect(r2b.json().error.message).toMatch(/Payment verification failed: no SOL transfer/);

    const platform = new PublicKey(req.payment.payTo);
    const mint = new PublicKey(h.usdcMint);
    const paid = await send(h.ledger, creator, [
      createTransferCheckedInstruction(getAssociatedTokenAddressSync(mint, creator.publicKey), mint, getAssociatedTokenAddressSync(mint, platform, true), creator.publicKey, 600_000_000n, 6),
      SystemProgram.transfer({ fromPubkey: creator.publicKey, toPubkey: platform, lamports: 300_000_000 }),
    ]);
    const r3 = await h.t.app.inject({ method: 'POST', url: '/v2/markets', headers: { 'x-payment': hdr(paid) }, payload: { ...body, marketId: req.marketId } });
    expect(r3.statusCode, r3.body).toBe(201);
    expect(r3.json().data).toMatchObject({ slug: req.slug, status: 'live', paid: true, creator: wallet, metadata: { option_wallets: req.optionWallets } });

    const again = await h.t.app.inject({ method: 'POST', url: '/v2/markets', headers: { 'x-payment': hdr(paid) }, payload: { ...body, marketId: req.marketId } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('ALREADY_PAID');
  });
});
