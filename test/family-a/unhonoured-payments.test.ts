// Issue 8 item 2: every verified inbound transfer to a platform wallet that is not honoured is
// recorded and refunded to the account it came from (or held while its own quote can still honour
// it, or credited to a claim), exactly once; the refusal says which, with the refund's signature.
// Before: each case answered a clear error and the money stayed with the platform, unrecorded.
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  createMintToInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { Keypair, PublicKey, SystemProgram } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { admin, createMarket, fundedUser, send, tokenBalance, transfer, xPayment } from './family-a.harness.js';
import { USDC0, useUnhonouredWorld } from './unhonoured-payments.fixture.js';

const w = useUnhonouredWorld();
const { post, lookup, quote, buyHeader, settled } = w;

describe('refused payments are refunded (and the answer says so)', () => {
  it('buy paid, then the market resolved before step 2: 409, and the USDC goes back', async () => {
    const m = await createMarket(w.h);
    const user = await fundedUser(w.h);
    const wallet = user.publicKey.toBase58();
    const q = await quote(m, 'buy', { wallet, amount: 1, side: 'YES' });
    const sig = await transfer(w.h, user, w.h.usdcMint, q.payment.payTo, 1_000_000n);
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
    expect(await tokenBalance(w.h, wallet, w.h.usdcMint)).toBe(USDC0);
    // A second presentation refunds nothing more, and the lookup answers the refund.
    const again = await post(`/v2/markets/${m.slug}/trade/buy`, { wallet, amount: 1, side: 'YES' }, buyHeader(q, sig, wallet));
    expect(again.json().paymentOutcome.transfers[0].refund.signature).toBe(body.paymentOutcome.transfers[0].refund.signature);
    expect(await lookup(sig)).toMatchObject({
      kind: 'unhonoured',
      status: null,
      platformSignatures: [body.paymentOutcome.transfers[0].refund.signature],
    });
    expect(await tokenBalance(w.h, wallet, w.h.usdcMint)).toBe(USDC0);
  });

  it('sell transfer, then the market resolved before step 2: the tokens go back (and can be claimed)', async () => {
    const m = await createMarket(w.h);
    const user = await fundedUser(w.h);
    const wallet = user.publicKey.toBase58();
    const b = await quote(m, 'buy', { wallet, amount: 1, side: 'YES' });
    const paid = await transfer(w.h, user, w.h.usdcMint, b.payment.payTo, 1_000_000n);
    expect((await post(`/v2/markets/${m.slug}/trade/buy`, { wallet, amount: 1, side: 'YES' }, buyHeader(b, paid, wallet))).statusCode).toBe(
      200,
    );
    const s = await quote(m, 'sell', { wallet, tokenAmount: 500, side: 'YES' });
    const sig = await transfer(w.h, user, m.cas.Yes, s.payment.sendTo, 500_000_000n);
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
    expect(await tokenBalance(w.h, wallet, m.cas.Yes)).toBe(2_000_000_000n);
  });

  it("short by one raw unit, and paid to the other side's option wallet: refunded at once", async () => {
    const m = await createMarket(w.h);
    const user = await fundedUser(w.h);
    const wallet = user.publicKey.toBase58();
    const q = await quote(m, 'buy', { wallet, amount: 1, side: 'YES' });
    const short = await transfer(w.h, user, w.h.usdcMint, q.payment.payTo, 999_999n);
    const r1 = await post(`/v2/markets/${m.slug}/trade/buy`, { wallet, amount: 1, side: 'YES' }, buyHeader(q, short, wallet));
    expect(r1.statusCode).toBe(402);
    expect(r1.json().error.message).toMatch(/amount short.*Your payment: 0\.999999 USDC was refunded/);
    expect(r1.json().paymentOutcome.transfers[0]).toMatchObject({
      amount: 0.999999,
      state: 'refunded',
      reason: 'no quote of the sender was for exactly this amount when it landed',
    });

    const wrong = await transfer(w.h, user, w.h.usdcMint, m.metadata.option_wallets.No, 1_000_000n);
    const r2 = await post(`/v2/markets/${m.slug}/trade/buy`, { wallet, amount: 1, side: 'YES' }, buyHeader(q, wrong, wallet));
    expect(r2.statusCode).toBe(402);
    expect(r2.json().error.message).toMatch(/wrong recipient/);
    expect(r2.json().paymentOutcome.transfers[0]).toMatchObject({
      to: getAssociatedTokenAddressSync(new PublicKey(w.h.usdcMint), new PublicKey(m.metadata.option_wallets.No), true).toBase58(),
      state: 'refunded',
    });
    await settled(short);
    await settled(wrong);
    expect(await tokenBalance(w.h, wallet, w.h.usdcMint)).toBe(USDC0);
  });

  it('one transaction paying two markets: the first is honoured, the second refunded by the same step 2', async () => {
    const a = await createMarket(w.h);
    const b = await createMarket(w.h);
    const user = await fundedUser(w.h);
    const wallet = user.publicKey.toBase58();
    const qa = await quote(a, 'buy', { wallet, amount: 1, side: 'YES' });
    await quote(b, 'buy', { wallet, amount: 2, side: 'NO' });
    const usdc = new PublicKey(w.h.usdcMint);
    const from = getAssociatedTokenAddressSync(usdc, user.publicKey);
    const to = (owner: string) => getAssociatedTokenAddressSync(usdc, new PublicKey(owner), true);
    const sig = await send(w.h.ledger, user, [
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
    expect(await tokenBalance(w.h, wallet, w.h.usdcMint)).toBe(USDC0 - 1_000_000n);
    expect(await tokenBalance(w.h, wallet, a.cas.Yes)).toBe(2_000_000_000n);
  });

  it('a token of another mint, and SOL, sent to an option wallet are sent back', async () => {
    const m = await createMarket(w.h);
    const user = await fundedUser(w.h);
    const wallet = user.publicKey.toBase58();
    const fake = Keypair.generate();
    const rent = await w.h.client.getMinimumBalanceForRentExemption(MINT_SIZE);
    const src = getAssociatedTokenAddressSync(fake.publicKey, user.publicKey);
    await w.h.ledger.sendInstructions(
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
    const sig = await send(w.h.ledger, user, [
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
    expect(await tokenBalance(w.h, wallet, fake.publicKey.toBase58())).toBe(5_000_000n);
    expect((await w.h.client.getAccount(q.payment.payTo))?.lamports ?? 0n).toBe(0n);
  });

  it('paid market creation: USDC without the SOL part is refunded; more than the fee is honoured and the rest refunded', async () => {
    const creator = await fundedUser(w.h);
    const wallet = creator.publicKey.toBase58();
    const body = {
      name: 'Refund the creation overpay',
      description: 'Created by paying the fee',
      end_date: '2031-06-01T00:00:00Z',
      creator_wallet: wallet,
    };
    const req = (await post('/v2/markets', body)).json();
    const hdr = (sig: string) => ({
      'x-payment': xPayment({ txHash: sig, amount: 600, payer: wallet, payTo: req.payment.payTo, asset: w.h.usdcMint }),
    });
    const usdcOnly = await transfer(w.h, creator, w.h.usdcMint, req.payment.payTo, 600_000_000n);
    const r1 = await post('/v2/markets', { ...body, marketId: req.marketId }, hdr(usdcOnly));
    expect(r1.statusCode).toBe(402);
    expect(r1.json().error.message).toMatch(/no SOL transfer.*Your payment: 600 USDC was refunded/);
    expect(await tokenBalance(w.h, wallet, w.h.usdcMint)).toBe(USDC0);

    const platform = new PublicKey(req.payment.payTo);
    const usdc = new PublicKey(w.h.usdcMint);
    const paid = await send(w.h.ledger, creator, [
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
    expect(await tokenBalance(w.h, wallet, w.h.usdcMint)).toBe(USDC0 - 600_000_000n);
  });
});
