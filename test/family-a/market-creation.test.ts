// POST /v2/markets paid by x402: 402 with the fee, pay it, 201 once the market is live.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awaitOutbound } from '../../src/services/outbound/outbound-wait.js';
import { findOutboundByKey } from '../../db/repositories/outbound-transactions.repository.js';
import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { PublicKey, SystemProgram } from '@solana/web3.js';
import { renewPaymentDeadline } from '../../db/repositories/family-a-creations.repository.js';
import { sweepFamilyAMoney } from '../../src/services/family-a/money-sweep.service.js';
import { admin, createHarness, familyADeps, fundedUser, send, transfer, xPayment, type Harness } from './family-a.harness.js';

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
    const past = {
      name: 'Already over',
      description: 'Ended yesterday',
      end_date: new Date(Date.now() - 86_400_000).toISOString(),
      creator_wallet: wallet,
    };
    const paid = await h.t.app.inject({ method: 'POST', url: '/v2/markets', payload: past });
    expect(paid.statusCode).toBe(400); // before: 402 and a pending market that would trade
    expect(paid.json().error.message).toMatch(/endDate must be in the future/);
    const adm = await h.t.app.inject({
      method: 'POST',
      url: '/v2/admin/markets',
      headers: admin,
      payload: { name: 'Admin past', description: 'd', endDate: '2001-01-01' },
    });
    expect(adm.statusCode).toBe(400);
    expect((await h.t.app.inject({ method: 'GET', url: '/v2/markets?status=pending&limit=100' })).json().data.count).toBe(before);
  });

  it('answers 402 with the creation fee, then 201 with a live market after payment', async () => {
    const creator = await fundedUser(h);
    const wallet = creator.publicKey.toBase58();
    const body = {
      name: 'Will the x402 market work?',
      description: 'Created by paying the fee',
      end_date: '2031-06-01T00:00:00Z',
      options: ['Yes', 'No'],
      creator_wallet: wallet,
      tags: ['meta'],
    };
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
    const r2 = await h.t.app.inject({
      method: 'POST',
      url: '/v2/markets',
      headers: { 'x-payment': hdr(short) },
      payload: { ...body, marketId: req.marketId },
    });
    expect(r2.statusCode).toBe(402);
    expect(r2.json().error.message).toMatch(/amount short/);

    // The USDC part alone is not enough: the SOL part must be in the same transaction.
    const usdcOnly = await transfer(h, creator, h.usdcMint, req.payment.payTo, 600_000_000n);
    const r2b = await h.t.app.inject({
      method: 'POST',
      url: '/v2/markets',
      headers: { 'x-payment': hdr(usdcOnly) },
      payload: { ...body, marketId: req.marketId },
    });
    expect(r2b.statusCode).toBe(402);
    expect(r2b.json().error.message).toMatch(/Payment verification failed: no SOL transfer/);

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
    const r3 = await h.t.app.inject({
      method: 'POST',
      url: '/v2/markets',
      headers: { 'x-payment': hdr(paid) },
      payload: { ...body, marketId: req.marketId },
    });
    expect(r3.statusCode, r3.body).toBe(201);
    expect(r3.json().data).toMatchObject({
      slug: req.slug,
      status: 'live',
      paid: true,
      creator: wallet,
      metadata: { option_wallets: req.optionWallets },
    });

    const again = await h.t.app.inject({
      method: 'POST',
      url: '/v2/markets',
      headers: { 'x-payment': hdr(paid) },
      payload: { ...body, marketId: req.marketId },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('ALREADY_PAID');
  });

  it('answers a repeated identical request with the same pending market, a different one with another (issue 8 item 6)', async () => {
    const wallet = (await fundedUser(h, 0n)).publicKey.toBase58();
    const body = {
      name: 'Will repeats squat slugs?',
      description: 'Asked twice by an agent',
      end_date: '2031-06-01T00:00:00Z',
      options: ['UP', 'DOWN'],
      creator_wallet: wallet,
      tags: ['t'],
    };
    const first = (await h.t.app.inject({ method: 'POST', url: '/v2/markets', payload: body })).json();
    const again = (await h.t.app.inject({ method: 'POST', url: '/v2/markets', payload: body })).json();
    expect(again).toMatchObject({ error: { code: 'PAYMENT_REQUIRED' }, marketId: first.marketId, slug: 'will-repeats-squat-slugs' });
    expect(again.payment.expiresAt).toBe(first.payment.expiresAt);
    const other = (
      await h.t.app.inject({ method: 'POST', url: '/v2/markets', payload: { ...body, description: 'Another question text' } })
    ).json();
    expect(other.marketId).not.toBe(first.marketId);
    expect(other.slug).toBe('will-repeats-squat-slugs-2');
    const pending = (await h.t.app.inject({ method: 'GET', url: `/v2/markets?status=pending&creator=${wallet}` })).json().data;
    expect(pending.count).toBe(2);
    // Its window closed (not yet swept): the same request reopens it rather than taking a new slug.
    await renewPaymentDeadline(h.ctx.db, first.marketId, new Date(Date.now() - 1_000).toISOString());
    const reopened = (await h.t.app.inject({ method: 'POST', url: '/v2/markets', payload: body })).json();
    expect(reopened.marketId).toBe(first.marketId);
    expect(Date.parse(reopened.payment.expiresAt)).toBeGreaterThan(Date.now() + 290_000);
  });

  it('expires an unpaid creation after its window and grace, releasing the slug; a late payment is refunded', async () => {
    const creator = await fundedUser(h);
    const wallet = creator.publicKey.toBase58();
    const body = {
      name: 'Will this slug be released?',
      description: 'Never paid in time',
      end_date: '2031-06-01T00:00:00Z',
      creator_wallet: wallet,
    };
    const req = (await h.t.app.inject({ method: 'POST', url: '/v2/markets', payload: body })).json();
    const deadline = Date.parse(req.payment.expiresAt);
    const deps = familyADeps(h);
    // Within the grace (FAMILY_A_PRESENT_GRACE_SEC, default 600 s) the market stays: a payment landed in time may still come.
    expect((await sweepFamilyAMoney(deps, deadline + 599_000)).expiredCreations).not.toContain(req.slug);
    expect((await sweepFamilyAMoney(deps, deadline + 601_000)).expiredCreations).toContain(req.slug);
    expect((await h.t.app.inject({ method: 'GET', url: `/v2/markets/${req.slug}` })).statusCode).toBe(404);

    // Presented now, the payment finds no pending market and goes back to the creator.
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
    const late = await h.t.app.inject({
      method: 'POST',
      url: '/v2/markets',
      headers: { 'x-payment': xPayment({ txHash: paid, amount: 600, payer: wallet, payTo: req.payment.payTo, asset: h.usdcMint }) },
      payload: { ...body, marketId: req.marketId },
    });
    expect(late.statusCode).toBe(404);
    expect(
      late
        .json()
        .paymentOutcome.transfers.map((t: { asset: string; state: string }) => `${t.asset}:${t.state}`)
        .sort(),
    ).toEqual(['SOL:refunded', 'USDC:refunded']);

    // The same request now creates the market afresh under the released slug.
    const fresh = (await h.t.app.inject({ method: 'POST', url: '/v2/markets', payload: body })).json();
    expect(fresh.slug).toBe(req.slug);
    expect(fresh.marketId).not.toBe(req.marketId);
  });
});
