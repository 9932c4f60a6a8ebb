// Every buy refusal, on the real stack: each changes nothing and delivers nothing.
import {
  createMintToInstruction,
  createInitializeMint2Instruction,
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { Keypair, SystemProgram } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, createMarket, fundedUser, tokenBalance, transfer, xPayment, type Harness } from './family-a.harness.js';

let h: Harness;
let market: Awaited<ReturnType<typeof createMarket>>;
beforeAll(async () => {
  h = await createHarness();
  market = await createMarket(h);
});
afterAll(async () => {
  await h?.close();
});

const url = () => `/v2/markets/${market.slug}/trade/buy`;

async function step1(wallet: string, amount = 1, side = 'YES') {
  const res = await h.t.app.inject({ method: 'POST', url: url(), payload: { wallet, amount, side } });
  expect(res.statusCode).toBe(402);
  return res.json();
}

async function step2(wallet: string, header: string, amount = 1, side = 'YES') {
  return h.t.app.inject({ method: 'POST', url: url(), headers: { 'x-payment': header }, payload: { wallet, amount, side } });
}

function header(
  q: { payment: { payTo: string }; quote: { issuedAt: string } },
  txHash: string,
  payer: string,
  extra: Record<string, unknown> = {},
) {
  return xPayment({ txHash, amount: 1, payer, payTo: q.payment.payTo, asset: h.usdcMint, quoteIssuedAt: q.quote.issuedAt, ...extra });
}

async function expectFailed(res: Awaited<ReturnType<typeof step2>>, status: number, code: string, reason?: RegExp) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(body.success).toBe(false);
  expect(body.error.code).toBe(code);
  if (reason) expect(body.error.message).toMatch(reason);
}

describe('Family A buy refusals', () => {
  it('refuses amounts outside 0.01–1,000,000 and more than 6 decimals with 400', async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    for (const amount of [0.001, 1_000_001, 0.0000001, 1.0000001]) {
      const res = await h.t.app.inject({ method: 'POST', url: url(), payload: { wallet, amount, side: 'YES' } });
      await expectFailed(res, 400, 'VALIDATION_ERROR');
    }
  });

  it('refuses a malformed X-PAYMENT header with 400 VALIDATION_ERROR', async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    const otherNetwork = xPayment({
      network: 'solana-mainnet',
      txHash: '5'.repeat(87),
      amount: 1,
      payer: wallet,
      payTo: wallet,
      asset: h.usdcMint,
      quoteIssuedAt: new Date().toISOString(),
    });
    for (const bad of [
      '%%%',
      Buffer.from('not json').toString('base64'),
      Buffer.from('{"x402Version":1}').toString('base64'),
      otherNetwork,
    ]) {
      await expectFailed(await step2(wallet, bad), 400, 'VALIDATION_ERROR', /Malformed X-PAYMENT/);
    }
  });

  it('refuses an X-PAYMENT payer that is not a public key with 400 (was 402)', async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    const badPayer = xPayment({
      txHash: '5'.repeat(87),
      amount: 1,
      payer: 'abc',
      payTo: wallet,
      asset: h.usdcMint,
      quoteIssuedAt: new Date().toISOString(),
    });
    await expectFailed(await step2(wallet, badPayer), 400, 'VALIDATION_ERROR', /payer is not a valid Solana address/);
  });

  it('refuses a payment of the right amount to the wrong wallet', async () => {
    const user = await fundedUser(h);
    const wallet = user.publicKey.toBase58();
    const q = await step1(wallet);
    const sig = await transfer(h, user, h.usdcMint, market.metadata.option_wallets.No, 1_000_000n);
    await expectFailed(await step2(wallet, header(q, sig, wallet)), 402, 'PAYMENT_FAILED', /wrong recipient/);
    expect(await tokenBalance(h, wallet, market.cas.Yes)).toBe(0n);
  });

  it('refuses a payment in the wrong mint', async () => {
    const user = await fundedUser(h);
    const wallet = user.publicKey.toBase58();
    const fake = Keypair.generate();
    const rent = await h.client.getMinimumBalanceForRentExemption(MINT_SIZE);
    const payTo = market.metadata.option_wallets.Yes;
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
    const q = await step1(wallet);
    const sig = await transfer(h, user, fake.publicKey.toBase58(), payTo, 1_000_000n, true);
    await expectFailed(await step2(wallet, header(q, sig, wallet)), 402, 'PAYMENT_FAILED', /wrong mint/);
    await expectFailed(
      await step2(wallet, header(q, sig, wallet, { asset: fake.publicKey.toBase58() })),
      402,
      'PAYMENT_FAILED',
      /wrong mint/,
    );
  });

  it('refuses a payment from another payer, and a payload payer that is not the body wallet', async () => {
    const user = await fundedUser(h);
    const other = await fundedUser(h);
    const wallet = user.publicKey.toBase58();
    const q = await step1(wallet);
    const sig = await transfer(h, other, h.usdcMint, q.payment.payTo, 1_000_000n);
    await expectFailed(await step2(wallet, header(q, sig, wallet)), 402, 'PAYMENT_FAILED', /payer mismatch/);
    await expectFailed(await step2(wallet, header(q, sig, other.publicKey.toBase58())), 402, 'PAYMENT_FAILED', /payer mismatch/);
  });

  it('refuses a short payment and an unknown transaction', async () => {
    const user = await fundedUser(h);
    const wallet = user.publicKey.toBase58();
    const q = await step1(wallet);
    const sig = await transfer(h, user, h.usdcMint, q.payment.payTo, 999_999n);
    await expectFailed(await step2(wallet, header(q, sig, wallet)), 402, 'PAYMENT_FAILED', /amount short/);
    const unknown = '5'.repeat(87);
    await expectFailed(await step2(wallet, header(q, unknown, wallet)), 402, 'PAYMENT_FAILED', /not found/);
  });

  it('answers an unknown quote and an expired quote with 402 and a fresh quote, consuming nothing', async () => {
    const user = await fundedUser(h);
    const wallet = user.publicKey.toBase58();
    const q = await step1(wallet);
    const sig = await transfer(h, user, h.usdcMint, q.payment.payTo, 1_000_000n);
    const unknown = await step2(wallet, header(q, sig, wallet, { quoteIssuedAt: '2020-01-01T00:00:00.000Z' }));
    await expectFailed(unknown, 402, 'QUOTE_NOT_FOUND');
    expect(unknown.json().quote.issuedAt).not.toBe(q.quote.issuedAt);

    const q2 = await step1(wallet);
    h.ledger.warpTime(125);
    try {
      const late = await transfer(h, user, h.usdcMint, q2.payment.payTo, 1_000_000n);
      const expired = await step2(wallet, header(q2, late, wallet));
      await expectFailed(expired, 402, 'QUOTE_EXPIRED');
      expect(expired.json().payment.payTo).toBe(q2.payment.payTo);
      expect(await tokenBalance(h, wallet, market.cas.Yes)).toBe(0n);
    } finally {
      h.ledger.warpTime(-125);
    }
  });

  it('serves two concurrent step-2 requests with one payment: one delivery, one clear refusal', async () => {
    const user = await fundedUser(h);
    const wallet = user.publicKey.toBase58();
    const q = await step1(wallet);
    const sig = await transfer(h, user, h.usdcMint, q.payment.payTo, 1_000_000n);
    const hdr = header(q, sig, wallet);
    const results = await Promise.all([step2(wallet, hdr), step2(wallet, hdr), step2(wallet, hdr)]);
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 400, 400]);
    for (const r of results.filter((x) => x.statusCode === 400)) expect(r.json().error.code).toBe('VALIDATION_ERROR');
    expect(await tokenBalance(h, wallet, market.cas.Yes)).toBe(2_000_000_000n);
  });

  it('refuses trading a market that does not exist (404)', async () => {
    const res = await h.t.app.inject({
      method: 'POST',
      url: '/v2/markets/no-such-market/trade/buy',
      payload: { wallet: Keypair.generate().publicKey.toBase58(), amount: 1, side: 'YES' },
    });
    await expectFailed(res, 404, 'MARKET_NOT_FOUND');
  });
});
