// Issue 8 item 2, continued: payments held for their own quote, refunds the receiving wallet can no
// longer cover or send anywhere, and what operators see of them (the refused cases are in
// unhonoured-payments.test.ts).
import { createCloseAccountInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { sweepFamilyAMoney } from '../../src/services/family-a/money-sweep.service.js';
import { admin, createMarket, familyADeps, fundedUser, send, tokenBalance, transfer } from './family-a.harness.js';
import { USDC0, useUnhonouredWorld } from './unhonoured-payments.fixture.js';

const w = useUnhonouredWorld();
const { post, lookup, quote, buyHeader, settled } = w;

describe('a payment its own quote can still honour is held, then refunded if nobody does', () => {
  it("an overpayment presented with a smaller quote is held for the payer's matching quote, refunded after its grace", async () => {
    const m = await createMarket(w.h);
    const user = await fundedUser(w.h);
    const wallet = user.publicKey.toBase58();
    const small = await quote(m, 'buy', { wallet, amount: 1, side: 'YES' });
    const own = await quote(m, 'buy', { wallet, amount: 5, side: 'YES' });
    const sig = await transfer(w.h, user, w.h.usdcMint, own.payment.payTo, 5_000_000n);
    const res = await post(`/v2/markets/${m.slug}/trade/buy`, { wallet, amount: 1, side: 'YES' }, buyHeader(small, sig, wallet));
    expect(res.statusCode).toBe(402);
    const held = res.json().paymentOutcome.transfers[0];
    // Held until the matching 5 USDC quote expires (120 s) plus the 600 s grace.
    expect(held).toMatchObject({ amount: 5, state: 'held', refund: null });
    expect(Date.parse(held.refundAfter)).toBe(Date.parse(own.quote.expiresAt) + 600_000);
    expect(res.json().error.message).toMatch(/stays claimable by a matching quote until/);

    const deps = familyADeps(w.h);
    // Nothing is due before the deadline; after it, the sweep refunds.
    expect((await sweepFamilyAMoney(deps, Date.parse(held.refundAfter) - 1_000)).refunds).toHaveLength(0);
    expect((await sweepFamilyAMoney(deps, Date.parse(held.refundAfter) + 1_000)).refunds).toHaveLength(1);
    const data = await settled(sig);
    expect(data.transfers[0]).toMatchObject({ state: 'refunded', reason: expect.stringMatching(/nobody presented it with that quote by/) });
    expect(await tokenBalance(w.h, wallet, w.h.usdcMint)).toBe(USDC0);
    // Presented now with its own quote: refused, the money already went back. The same sweep run
    // deleted the quote (expired more than the grace ago), so the refusal is QUOTE_NOT_FOUND,
    // and its message says where the payment went.
    const late = await post(`/v2/markets/${m.slug}/trade/buy`, { wallet, amount: 5, side: 'YES' }, buyHeader(own, sig, wallet));
    expect(late.statusCode).toBe(402);
    expect(late.json().error).toMatchObject({
      code: 'QUOTE_NOT_FOUND',
      message: expect.stringMatching(/Your payment: 5 USDC was refunded/),
    });
    expect(await tokenBalance(w.h, wallet, m.cas.Yes)).toBe(0n);
  });

  it('a payment presented by a stranger is never refunded to the stranger, and stays claimable by its payer', async () => {
    const m = await createMarket(w.h);
    const victim = await fundedUser(w.h);
    const vw = victim.publicKey.toBase58();
    const stranger = Keypair.generate().publicKey.toBase58();
    const own = await quote(m, 'buy', { wallet: vw, amount: 2, side: 'NO' });
    const theirs = await quote(m, 'buy', { wallet: stranger, amount: 2, side: 'NO' });
    const sig = await transfer(w.h, victim, w.h.usdcMint, own.payment.payTo, 2_000_000n);
    const res = await post(
      `/v2/markets/${m.slug}/trade/buy`,
      { wallet: stranger, amount: 2, side: 'NO' },
      buyHeader(theirs, sig, stranger),
    );
    expect(res.statusCode).toBe(402);
    expect(res.json().paymentOutcome.transfers[0]).toMatchObject({ state: 'held', sender: vw });
    const mine = await post(`/v2/markets/${m.slug}/trade/buy`, { wallet: vw, amount: 2, side: 'NO' }, buyHeader(own, sig, vw));
    expect(mine.statusCode, mine.body).toBe(200);
    expect((await lookup(sig)).transfers[0]).toMatchObject({ state: 'honoured' });
    expect((await sweepFamilyAMoney(familyADeps(w.h), Date.now() + 86_400_000)).refunds).toHaveLength(0);
  });

  it('honour and refund racing for one held payment: exactly one wins', async () => {
    const m = await createMarket(w.h);
    const deps = familyADeps(w.h);
    for (let i = 0; i < 4; i++) {
      const user = await fundedUser(w.h);
      const wallet = user.publicKey.toBase58();
      const small = await quote(m, 'buy', { wallet, amount: 1, side: 'YES' });
      const own = await quote(m, 'buy', { wallet, amount: 3, side: 'YES' });
      const sig = await transfer(w.h, user, w.h.usdcMint, own.payment.payTo, 3_000_000n);
      expect(
        (await post(`/v2/markets/${m.slug}/trade/buy`, { wallet, amount: 1, side: 'YES' }, buyHeader(small, sig, wallet))).statusCode,
      ).toBe(402);
      const [honour, sweep] = await Promise.all([
        post(`/v2/markets/${m.slug}/trade/buy`, { wallet, amount: 3, side: 'YES' }, buyHeader(own, sig, wallet)),
        sweepFamilyAMoney(deps, Date.now() + 86_400_000),
      ]);
      const data = await settled(sig);
      const tokens = await tokenBalance(w.h, wallet, m.cas.Yes);
      const usdc = await tokenBalance(w.h, wallet, w.h.usdcMint);
      if (honour.statusCode === 200) {
        expect(data.transfers[0].state).toBe('honoured');
        expect(sweep.refunds).toHaveLength(0);
        expect([tokens, usdc]).toEqual([6_000_000_000n, USDC0 - 3_000_000n]);
      } else {
        expect(data.transfers[0].state).toBe('refunded');
        expect([tokens, usdc]).toEqual([0n, USDC0]);
      }
    }
  });
});

describe('refunds the receiving wallet can no longer cover, and refunds with nowhere to go', () => {
  it('tops a refund up from the platform reserve when payouts drained the option wallet', async () => {
    const m = await createMarket(w.h, { marketLimit: 100_000 });
    const alice = await fundedUser(w.h);
    const bob = await fundedUser(w.h);
    const aw = alice.publicKey.toBase58();
    const bw = bob.publicKey.toBase58();
    const q = await quote(m, 'buy', { wallet: aw, amount: 1, side: 'YES' });
    const paid = await transfer(w.h, alice, w.h.usdcMint, q.payment.payTo, 1_000_000n);
    expect((await post(`/v2/markets/${m.slug}/trade/buy`, { wallet: aw, amount: 1, side: 'YES' }, buyHeader(q, paid, aw))).statusCode).toBe(
      200,
    ); // 2,000 YES
    // Bob's 2 USDC waits for his own quote (he presented a smaller one): the YES wallet holds 3 USDC.
    const small = await quote(m, 'buy', { wallet: bw, amount: 1, side: 'YES' });
    const own = await quote(m, 'buy', { wallet: bw, amount: 2, side: 'YES' });
    const sig = await transfer(w.h, bob, w.h.usdcMint, own.payment.payTo, 2_000_000n);
    const held = (await post(`/v2/markets/${m.slug}/trade/buy`, { wallet: bw, amount: 1, side: 'YES' }, buyHeader(small, sig, bw))).json()
      .paymentOutcome.transfers[0];
    expect(held.state).toBe('held');
    // YES wins; Alice's 2 USDC claim drains the YES wallet to 1 USDC.
    await post(`/v2/admin/markets/${m.slug}/resolve`, { outcome: 'YES' }, admin);
    const info = (await post(`/v2/markets/${m.slug}/claim`, { wallet: aw })).json().data;
    const csig = await transfer(w.h, alice, m.cas.Yes, info.nextStep.sendTo, 2_000_000_000n);
    expect((await post(`/v2/markets/${m.slug}/claim/confirm`, { wallet: aw, transferTxHash: csig })).json().data).toMatchObject({
      payoutUsdc: 2,
      deliveryStatus: 'confirmed',
    });
    expect(await tokenBalance(w.h, m.metadata.option_wallets.Yes, w.h.usdcMint)).toBe(1_000_000n);
    // After Bob's grace, the refund takes the 1 USDC left and 1 USDC of the reserve.
    const deps = familyADeps(w.h);
    await w.h.ledger.mintUsdc(deps.keys.platform().publicKey, 1_000_000n);
    expect((await sweepFamilyAMoney(deps, Date.parse(held.refundAfter) + 1)).refunds).toHaveLength(1);
    expect((await settled(sig)).transfers[0]).toMatchObject({ state: 'refunded', refund: { amount: 2, status: 'confirmed' } });
    expect(await tokenBalance(w.h, bw, w.h.usdcMint)).toBe(USDC0);
  });

  it('fails a refund whose source account was closed, with the reason, for an operator', async () => {
    const m = await createMarket(w.h);
    const bob = await fundedUser(w.h, 2_000_000n);
    const bw = bob.publicKey.toBase58();
    const q = await quote(m, 'buy', { wallet: bw, amount: 1, side: 'NO' });
    const short = await transfer(w.h, bob, w.h.usdcMint, q.payment.payTo, 2_000_000n); // all he has; more than the quote
    const usdc = new PublicKey(w.h.usdcMint);
    await send(w.h.ledger, bob, [
      createCloseAccountInstruction(getAssociatedTokenAddressSync(usdc, bob.publicKey), bob.publicKey, bob.publicKey),
    ]);
    const res = await post(`/v2/markets/${m.slug}/trade/buy`, { wallet: bw, amount: 1, side: 'NO' }, buyHeader(q, short, bw));
    expect(res.statusCode).toBe(402);
    const t = res.json().paymentOutcome.transfers[0];
    expect(t).toMatchObject({
      state: 'refunded',
      refund: { status: 'failed', error: expect.stringMatching(/is no longer a .* account of .*; refund manually/) },
    });
    const failed = (await w.h.t.app.inject({ method: 'GET', url: '/v2/admin/outbound?status=failed', headers: admin })).json().data;
    expect(failed.map((r: { idempotencyKey: string }) => r.idempotencyKey)).toContain(`a-refund-${short}-${t.index}`);
  });
});

describe('operators see what was not honoured', () => {
  it('lists open and refunded transfers', async () => {
    const refunded = (await w.h.t.app.inject({ method: 'GET', url: '/v2/admin/family-a/transfers?state=refunded', headers: admin })).json()
      .data;
    expect(refunded.length).toBeGreaterThan(3);
    expect(refunded.every((t: { state: string }) => t.state === 'refunded')).toBe(true);
    const overview = (await w.h.t.app.inject({ method: 'GET', url: '/v2/admin/family-a/money', headers: admin })).json().data;
    expect(overview.counts.transfers.find((c: { state: string }) => c.state === 'refund_confirmed').count).toBeGreaterThan(3);
    expect((await w.h.t.app.inject({ method: 'GET', url: '/v2/admin/family-a/transfers' })).statusCode).toBe(401);
  });
});
