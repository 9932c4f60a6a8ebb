// Issue 8 item 2: every verified inbound transfer to a platform wallet that is not honoured is
// recorded and refunded to the account it came from (or held while its own quote can still honour
// it, or credited to a claim), exactly once; the refusal says which, with the refund's signature.
// Before: each case answered a clear error and the money stayed with the platform, unrecorded.
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createCloseAccountInstruction,
  createInitializeMint2Instruction,
  createMintToInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { Keypair, PublicKey, SystemProgram } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOutboundByKey } from '../../db/repositories/outbound-transactions.repository.js';
import { sweepFamilyAMoney } from '../../src/services/family-a/money-sweep.service.js';
import { awaitOutbound } from '../../src/services/outbound/outbound-wait.js';
import {
  admin,
  createHarness,
  createMarket,
  familyADeps,
  fundedUser,
  send,
  tokenBalance,
  transfer,
  xPayment,
  type Harness,
} from './family-a.harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: { FAMILY_A_PRESENT_GRACE_SEC: '600' } });
  await awaitOutbound(h.ctx.db, (await findOutboundByKey(h.ctx.db, 'a-platform-accounts'))!.id, 10_000);
});
afterAll(async () => {
  await h?.close();
});

type Market = Awaited<ReturnType<typeof createMarket>>;
const post = (url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  h.t.app.inject({ method: 'POST', url, payload, headers });
const lookup = async (sig: string) => (await h.t.app.inject({ method: 'GET', url: `/v2/payments/${sig}` })).json().data;
const USDC0 = 10_000_000_000n; // what fundedUser mints

async function quote(m: Market, path: 'buy' | 'sell', payload: Record<string, unknown>) {
  const res = await post(`/v2/markets/${m.slug}/trade/${path}`, payload);
  expect(res.statusCode, res.body).toBe(402);
  return res.json();
}

function buyHeader(q: { payment: { payTo: string }; quote: { issuedAt: string; amount: number } }, sig: string, payer: string) {
  return {
    'x-payment': xPayment({
      txHash: sig,
      amount: q.quote.amount,
      payer,
      payTo: q.payment.payTo,
      asset: h.usdcMint,
      quoteIssuedAt: q.quote.issuedAt,
    }),
  };
}

/** Waits for every refund of the transaction to finish and answers the lookup. */
async function settled(sig: string) {
  const data = await lookup(sig);
  for (const t of data.transfers) {
    if (t.state !== 'refunded') continue;
    const row = await findOutboundByKey(h.ctx.db, `a-refund-${sig}-${t.index}`);
    expect((await awaitOutbound(h.ctx.db, row!.id, 15_000)).status).toBe('confirmed');
  }
  return lookup(sig);
}

describe('refused payments are refunded (and the answer says so)', () => {
  it('buy paid, then the market resolved before step 2: 409, and the USDC goes back', async () => {
    const m = await createMarket(h);
    const user = await fundedUser(h);
    const wallet = user.publicKey.toBase58();
    const q = await quote(m, 'buy', { wallet, amount: 1, side: 'YES' });
    const sig = await transfer(h, user, h.usdcMint, q.payment.payTo, 1_000_000n);
    expect((await post(`/v2/admin/markets/${m.slug}/resolve`, { outcome: 'NO' }, admin)).statusCode).toBe(200);
    const res = await post(`/v2/markets/${m.slug}/trade/buy`, { wallet, amount: 1, side: 'YES' }, buyHeader(q, sig, wallet));
    expect(res.statusCode, res.body).toBe(409);
    const body = res.json();
    expect(body.error.code).toBe('MARKET_NOT_ACTIVE');
    expect(body.error.message).toMatch(/Your payment: 1 USDC was refunded \([1-9A-HJ-NP-Za-km-z]+\) to /);
    expect(body.paymentOutcome).toMatchObject({
      txHash: sig,
      lookup: `/v2/payments/${sig}`,
      transfers: [
        {
          asset: 'USDC',
          amount: 1,
          state: 'refunded',
          reason: 'the market is resolved, so no trade can honour it',
          sender: wallet,
          refund: { status: 'confirmed', signature: expect.any(String) },
        },
      ],
    });
    expect(await tokenBalance(h, wallet, h.usdcMint)).toBe(USDC0);
    // A second presentation refunds nothing more, and the lookup answers the refund.
    const again = await post(`/v2/markets/${m.slug}/trade/buy`, { wallet, amount: 1, side: 'YES' }, buyHeader(q, sig, wallet));
    expect(again.json().paymentOutcome.transfers[0].refund.signature).toBe(body.paymentOutcome.transfers[0].refund.signature);
    expect(await lookup(sig)).toMatchObject({
      kind: 'unhonoured',
      status: null,
      platformSignatures: [body.paymentOutcome.transfers[0].refund.signature],
    });
    expect(await tokenBalance(h, wallet, h.usdcMint)).toBe(USDC0);
  });

  it('sell transfer, then the market resolved before step 2: the tokens go back (and can be claimed)', async () => {
    const m = await createMarket(h);
    const user = await fundedUser(h);
    const wallet = user.publicKey.toBase58();
    const b = await quote(m, 'buy', { wallet, amount: 1, side: 'YES' });
    const paid = await transfer(h, user, h.usdcMint, b.payment.payTo, 1_000_000n);
    expect((await post(`/v2/markets/${m.slug}/trade/buy`, { wallet, amount: 1, side: 'YES' }, buyHeader(b, paid, wallet))).statusCode).toBe(
      200,
    );
    const s = await quote(m, 'sell', { wallet, tokenAmount: 500, side: 'YES' });
    const sig = await transfer(h, user, m.cas.Yes, s.payment.sendTo, 500_000_000n);
    await post(`/v2/admin/markets/${m.slug}/resolve`, { outcome: 'YES' }, admin);
    const res = await post(
      `/v2/markets/${m.slug}/trade/sell`,
      { wallet, tokenAmount: 500, side: 'YES' },
      {
        'x-payment': xPayment({
          txHash: sig,
          amount: 500,
          payer: wallet,
          payTo: s.payment.sendTo,
          asset: m.cas.Yes,
          quoteIssuedAt: s.quote.issuedAt,
        }),
      },
    );
    expect(res.statusCode).toBe(409);
    expect(res.json().paymentOutcome.transfers).toMatchObject([
      { asset: 'token', mint: m.cas.Yes, amount: 500, state: 'refunded', refund: { status: 'confirmed' } },
    ]);
    expect(await tokenBalance(h, wallet, m.cas.Yes)).toBe(2_000_000_000n);
  });

  it("short by one raw unit, and paid to the other side's option wallet: refunded at once", async () => {
    const m = await createMarket(h);
    const user = await fundedUser(h);
    const wallet = user.publicKey.toBase58();
    const q = await quote(m, 'buy', { wallet, amount: 1, side: 'YES' });
    const short = await transfer(h, user, h.usdcMint, q.payment.payTo, 999_999n);
    const r1 = await post(`/v2/markets/${m.slug}/trade/buy`, { wallet, amount: 1, side: 'YES' }, buyHeader(q, short, wallet));
    expect(r1.statusCode).toBe(402);
    expect(r1.json().error.message).toMatch(/amount short.*Your payment: 0\.999999 USDC was refunded/);
    expect(r1.json().paymentOutcome.transfers[0]).toMatchObject({
      amount: 0.999999,
      state: 'refunded',
      reason: 'no quote of the sender was for exactly this amount when it landed',
    });

    const wrong = await transfer(h, user, h.usdcMint, m.metadata.option_wallets.No, 1_000_000n);
    const r2 = await post(`/v2/markets/${m.slug}/trade/buy`, { wallet, amount: 1, side: 'YES' }, buyHeader(q, wrong, wallet));
    expect(r2.statusCode).toBe(402);
    expect(r2.json().error.message).toMatch(/wrong recipient/);
    expect(r2.json().paymentOutcome.transfers[0]).toMatchObject({
      to: getAssociatedTokenAddressSync(new PublicKey(h.usdcMint), new PublicKey(m.metadata.option_wallets.No), true).toBase58(),
      state: 'refunded',
    });
    await settled(short);
    await settled(wrong);
    expect(await tokenBalance(h, wallet, h.usdcMint)).toBe(USDC0);
  });

  it('one transaction paying two markets: the first is honoured, the second refunded by the same step 2', async () => {
    const a = await createMarket(h);
    const b = await createMarket(h);
    const user = await fundedUser(h);
    const wallet = user.publicKey.toBase58();
    const qa = await quote(a, 'buy', { wallet, amount: 1, side: 'YES' });
    await quote(b, 'buy', { wallet, amount: 2, side: 'NO' });
    const usdc = new PublicKey(h.usdcMint);
    const from = getAssociatedTokenAddressSync(usdc, user.publicKey);
    const to = (owner: string) => getAssociatedTokenAddressSync(usdc, new PublicKey(owner), true);
    const sig = await send(h.ledger, user, [
      createTransferCheckedInstruction(from, usdc, to(a.metadata.option_wallets.Yes), user.publicKey, 1_000_000n, 6),
      createTransferCheckedInstruction(from, usdc, to(b.metadata.option_wallets.No), user.publicKey, 2_000_000n, 6),
    ]);
    const res = await post(`/v2/markets/${a.slug}/trade/buy`, { wallet, amount: 1, side: 'YES' }, buyHeader(qa, sig, wallet));
    expect(res.statusCode, res.body).toBe(200);
    const data = await settled(sig);
    expect(data).toMatchObject({ kind: 'buy', slug: a.slug, status: 'confirmed' });
    expect(data.transfers).toMatchObject([
      { slug: a.slug, amount: 1, state: 'honoured', honouredAmount: 1, refund: null },
      {
        slug: b.slug,
        amount: 2,
        state: 'refunded',
        reason: 'its transaction was honoured for another transfer',
        refund: { status: 'confirmed' },
      },
    ]);
    expect(await tokenBalance(h, wallet, h.usdcMint)).toBe(USDC0 - 1_000_000n);
    expect(await tokenBalance(h, wallet, a.cas.Yes)).toBe(2_000_000_000n);
  });

  it('a token of another mint, and SOL, sent to an option wallet are sent back', async () => {
    const m = await createMarket(h);
    const user = await fundedUser(h);
    const wallet = user.publicKey.toBase58();
    const fake = Keypair.generate();
    const rent = await h.client.getMinimumBalanceForRentExemption(MINT_SIZE);
    const src = getAssociatedTokenAddressSync(fake.publicKey, user.publicKey);
    await h.ledger.sendInstructions(
      [
        SystemProgram.createAccount({
          fromPubkey: user.publicKey,
          newAccountPubkey: fake.publicKey,
          lamports: Number(rent),
          space: MINT_SIZE,
          programId: TOKEN_PROGRAM_ID,
        }),
        createInitializeMint2Instruction(fake.publicKey, 6, user.publicKey, null),
        createAssociatedTokenAccountIdempotentInstruction(user.publicKey, src, user.publicKey, fake.publicKey),
        createMintToInstruction(fake.publicKey, src, user.publicKey, 5_000_000n),
      ],
      [user, fake],
    );
    const q = await quote(m, 'buy', { wallet, amount: 1, side: 'YES' });
    const option = new PublicKey(q.payment.payTo);
    const dest = getAssociatedTokenAddressSync(fake.publicKey, option, true);
    const sig = await send(h.ledger, user, [
      createAssociatedTokenAccountIdempotentInstruction(user.publicKey, dest, option, fake.publicKey),
      createTransferCheckedInstruction(src, fake.publicKey, dest, user.publicKey, 1_000_000n, 6),
      SystemProgram.transfer({ fromPubkey: user.publicKey, toPubkey: option, lamports: 10_000_000 }),
    ]);
    const res = await post(`/v2/markets/${m.slug}/trade/buy`, { wallet, amount: 1, side: 'YES' }, buyHeader(q, sig, wallet));
    expect(res.statusCode).toBe(402);
    const data = await settled(sig);
    expect(data.transfers.map((t: { asset: string; state: string }) => [t.asset, t.state]).sort()).toEqual([
      ['SOL', 'refunded'],
      ['token', 'refunded'],
    ]);
    expect(await tokenBalance(h, wallet, fake.publicKey.toBase58())).toBe(5_000_000n);
    expect((await h.client.getAccount(q.payment.payTo))?.lamports ?? 0n).toBe(0n);
  });

  it('paid market creation: USDC without the SOL part is refunded; more than the fee is honoured and the rest refunded', async () => {
    const creator = await fundedUser(h);
    const wallet = creator.publicKey.toBase58();
    const body = {
      name: 'Refund the creation overpay',
      description: 'Created by paying the fee',
      end_date: '2031-06-01T00:00:00Z',
      creator_wallet: wallet,
    };
    const req = (await post('/v2/markets', body)).json();
    const hdr = (sig: string) => ({
      'x-payment': xPayment({ txHash: sig, amount: 600, payer: wallet, payTo: req.payment.payTo, asset: h.usdcMint }),
    });
    const usdcOnly = await transfer(h, creator, h.usdcMint, req.payment.payTo, 600_000_000n);
    const r1 = await post('/v2/markets', { ...body, marketId: req.marketId }, hdr(usdcOnly));
    expect(r1.statusCode).toBe(402);
    expect(r1.json().error.message).toMatch(/no SOL transfer.*Your payment: 600 USDC was refunded/);
    expect(await tokenBalance(h, wallet, h.usdcMint)).toBe(USDC0);

    const platform = new PublicKey(req.payment.payTo);
    const usdc = new PublicKey(h.usdcMint);
    const paid = await send(h.ledger, creator, [
      createTransferCheckedInstruction(
        getAssociatedTokenAddressSync(usdc, creator.publicKey),
        usdc,
        getAssociatedTokenAddressSync(usdc, platform, true),
        creator.publicKey,
        601_000_000n,
        6,
      ),
      SystemProgram.transfer({ fromPubkey: creator.publicKey, toPubkey: platform, lamports: 300_000_001 }),
    ]);
    const r2 = await post('/v2/markets', { ...body, marketId: req.marketId }, hdr(paid));
    expect(r2.statusCode, r2.body).toBe(201);
    const data = await settled(paid);
    expect(data).toMatchObject({ kind: 'create', status: 'confirmed' });
    expect(data.transfers).toMatchObject([
      { asset: 'USDC', amount: 601, honouredAmount: 600, state: 'refunded', refund: { amount: 1, status: 'confirmed' } },
      { asset: 'SOL', amountRaw: '300000001', honouredAmount: 0.3, state: 'refunded', refund: { amount: 1e-9, status: 'confirmed' } },
    ]);
    expect(await tokenBalance(h, wallet, h.usdcMint)).toBe(USDC0 - 600_000_000n);
  });
});

describe('a payment its own quote can still honour is held, then refunded if nobody does', () => {
  it("an overpayment presented with a smaller quote is held for the payer's matching quote, refunded after its grace", async () => {
    const m = await createMarket(h);
    const user = await fundedUser(h);
    const wallet = user.publicKey.toBase58();
    const small = await quote(m, 'buy', { wallet, amount: 1, side: 'YES' });
    const own = await quote(m, 'buy', { wallet, amount: 5, side: 'YES' });
    const sig = await transfer(h, user, h.usdcMint, own.payment.payTo, 5_000_000n);
    const res = await post(`/v2/markets/${m.slug}/trade/buy`, { wallet, amount: 1, side: 'YES' }, buyHeader(small, sig, wallet));
    expect(res.statusCode).toBe(402);
    const held = res.json().paymentOutcome.transfers[0];
    // Held until the matching 5 USDC quote expires (120 s) plus the 600 s grace.
    expect(held).toMatchObject({ amount: 5, state: 'held', refund: null });
    expect(Date.parse(held.refundAfter)).toBe(Date.parse(own.quote.expiresAt) + 600_000);
    expect(res.json().error.message).toMatch(/stays claimable by a matching quote until/);

    const deps = familyADeps(h);
    // Nothing is due before the deadline; after it, the sweep refunds.
    expect((await sweepFamilyAMoney(deps, Date.parse(held.refundAfter) - 1_000)).refunds).toHaveLength(0);
    expect((await sweepFamilyAMoney(deps, Date.parse(held.refundAfter) + 1_000)).refunds).toHaveLength(1);
    const data = await settled(sig);
    expect(data.transfers[0]).toMatchObject({ state: 'refunded', reason: expect.stringMatching(/nobody presented it with that quote by/) });
    expect(await tokenBalance(h, wallet, h.usdcMint)).toBe(USDC0);
    // Presented now with its own quote: refused, the money already went back. The same sweep run
    // deleted the quote (expired more than the grace ago), so the refusal is QUOTE_NOT_FOUND,
    // and its message says where the payment went.
    const late = await post(`/v2/markets/${m.slug}/trade/buy`, { wallet, amount: 5, side: 'YES' }, buyHeader(own, sig, wallet));
    expect(late.statusCode).toBe(402);
    expect(late.json().error).toMatchObject({
      code: 'QUOTE_NOT_FOUND',
      message: expect.stringMatching(/Your payment: 5 USDC was refunded/),
    });
    expect(await tokenBalance(h, wallet, m.cas.Yes)).toBe(0n);
  });

  it('a payment presented by a stranger is never refunded to the stranger, and stays claimable by its payer', async () => {
    const m = await createMarket(h);
    const victim = await fundedUser(h);
    const vw = victim.publicKey.toBase58();
    const stranger = Keypair.generate().publicKey.toBase58();
    const own = await quote(m, 'buy', { wallet: vw, amount: 2, side: 'NO' });
    const theirs = await quote(m, 'buy', { wallet: stranger, amount: 2, side: 'NO' });
    const sig = await transfer(h, victim, h.usdcMint, own.payment.payTo, 2_000_000n);
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
    expect((await sweepFamilyAMoney(familyADeps(h), Date.now() + 86_400_000)).refunds).toHaveLength(0);
  });

  it('honour and refund racing for one held payment: exactly one wins', async () => {
    const m = await createMarket(h);
    const deps = familyADeps(h);
    for (let i = 0; i < 4; i++) {
      const user = await fundedUser(h);
      const wallet = user.publicKey.toBase58();
      const small = await quote(m, 'buy', { wallet, amount: 1, side: 'YES' });
      const own = await quote(m, 'buy', { wallet, amount: 3, side: 'YES' });
      const sig = await transfer(h, user, h.usdcMint, own.payment.payTo, 3_000_000n);
      expect(
        (await post(`/v2/markets/${m.slug}/trade/buy`, { wallet, amount: 1, side: 'YES' }, buyHeader(small, sig, wallet))).statusCode,
      ).toBe(402);
      const [honour, sweep] = await Promise.all([
        post(`/v2/markets/${m.slug}/trade/buy`, { wallet, amount: 3, side: 'YES' }, buyHeader(own, sig, wallet)),
        sweepFamilyAMoney(deps, Date.now() + 86_400_000),
      ]);
      const data = await settled(sig);
      const tokens = await tokenBalance(h, wallet, m.cas.Yes);
      const usdc = await tokenBalance(h, wallet, h.usdcMint);
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
    const m = await createMarket(h, { marketLimit: 100_000 });
    const alice = await fundedUser(h);
    const bob = await fundedUser(h);
    const aw = alice.publicKey.toBase58();
    const bw = bob.publicKey.toBase58();
    const q = await quote(m, 'buy', { wallet: aw, amount: 1, side: 'YES' });
    const paid = await transfer(h, alice, h.usdcMint, q.payment.payTo, 1_000_000n);
    expect((await post(`/v2/markets/${m.slug}/trade/buy`, { wallet: aw, amount: 1, side: 'YES' }, buyHeader(q, paid, aw))).statusCode).toBe(
      200,
    ); // 2,000 YES
    // Bob's 2 USDC waits for his own quote (he presented a smaller one): the YES wallet holds 3 USDC.
    const small = await quote(m, 'buy', { wallet: bw, amount: 1, side: 'YES' });
    const own = await quote(m, 'buy', { wallet: bw, amount: 2, side: 'YES' });
    const sig = await transfer(h, bob, h.usdcMint, own.payment.payTo, 2_000_000n);
    const held = (await post(`/v2/markets/${m.slug}/trade/buy`, { wallet: bw, amount: 1, side: 'YES' }, buyHeader(small, sig, bw))).json()
      .paymentOutcome.transfers[0];
    expect(held.state).toBe('held');
    // YES wins; Alice's 2 USDC claim drains the YES wallet to 1 USDC.
    await post(`/v2/admin/markets/${m.slug}/resolve`, { outcome: 'YES' }, admin);
    const info = (await post(`/v2/markets/${m.slug}/claim`, { wallet: aw })).json().data;
    const csig = await transfer(h, alice, m.cas.Yes, info.nextStep.sendTo, 2_000_000_000n);
    expect((await post(`/v2/markets/${m.slug}/claim/confirm`, { wallet: aw, transferTxHash: csig })).json().data).toMatchObject({
      payoutUsdc: 2,
      deliveryStatus: 'confirmed',
    });
    expect(await tokenBalance(h, m.metadata.option_wallets.Yes, h.usdcMint)).toBe(1_000_000n);
    // After Bob's grace, the refund takes the 1 USDC left and 1 USDC of the reserve.
    const deps = familyADeps(h);
    await h.ledger.mintUsdc(deps.keys.platform().publicKey, 1_000_000n);
    expect((await sweepFamilyAMoney(deps, Date.parse(held.refundAfter) + 1)).refunds).toHaveLength(1);
    expect((await settled(sig)).transfers[0]).toMatchObject({ state: 'refunded', refund: { amount: 2, status: 'confirmed' } });
    expect(await tokenBalance(h, bw, h.usdcMint)).toBe(USDC0);
  });

  it('fails a refund whose source account was closed, with the reason, for an operator', async () => {
    const m = await createMarket(h);
    const bob = await fundedUser(h, 2_000_000n);
    const bw = bob.publicKey.toBase58();
    const q = await quote(m, 'buy', { wallet: bw, amount: 1, side: 'NO' });
    const short = await transfer(h, bob, h.usdcMint, q.payment.payTo, 2_000_000n); // all he has; more than the quote
    const usdc = new PublicKey(h.usdcMint);
    await send(h.ledger, bob, [
      createCloseAccountInstruction(getAssociatedTokenAddressSync(usdc, bob.publicKey), bob.publicKey, bob.publicKey),
    ]);
    const res = await post(`/v2/markets/${m.slug}/trade/buy`, { wallet: bw, amount: 1, side: 'NO' }, buyHeader(q, short, bw));
    expect(res.statusCode).toBe(402);
    const t = res.json().paymentOutcome.transfers[0];
    expect(t).toMatchObject({
      state: 'refunded',
      refund: { status: 'failed', error: expect.stringMatching(/is no longer a .* account of .*; refund manually/) },
    });
    const failed = (await h.t.app.inject({ method: 'GET', url: '/v2/admin/outbound?status=failed', headers: admin })).json().data;
    expect(failed.map((r: { idempotencyKey: string }) => r.idempotencyKey)).toContain(`a-refund-${short}-${t.index}`);
  });
});

describe('operators see what was not honoured', () => {
  it('lists open and refunded transfers', async () => {
    const refunded = (await h.t.app.inject({ method: 'GET', url: '/v2/admin/family-a/transfers?state=refunded', headers: admin })).json()
      .data;
    expect(refunded.length).toBeGreaterThan(3);
    expect(refunded.every((t: { state: string }) => t.state === 'refunded')).toBe(true);
    const overview = (await h.t.app.inject({ method: 'GET', url: '/v2/admin/family-a/money', headers: admin })).json().data;
    expect(overview.counts.transfers.find((c: { state: string }) => c.state === 'refund_confirmed').count).toBeGreaterThan(3);
    expect((await h.t.app.inject({ method: 'GET', url: '/v2/admin/family-a/transfers' })).statusCode).toBe(401);
  });
});
