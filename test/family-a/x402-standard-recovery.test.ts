// Standard x402 payments that a crash left recorded but undecided are finished by the resume job
// (sent, honoured, or expired), a replayed PAYMENT-SIGNATURE answers what was decided and
// delivers nothing more, and a payer's attempts are bounded.
import { Keypair } from '@solana/web3.js';
import { decodePaymentResponseHeader } from '@x402/core/http';
import bs58 from 'bs58';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { x402ResumeProcessor } from '../../jobs/processors/family-a/x402-resume.processor.js';
import { createMetrics } from '../../src/infra/metrics.js';
import { insertX402Payment } from '../../db/repositories/family-a-x402.repository.js';
import { coSign } from '../../src/services/family-a/x402-standard/fee-payer.signer.js';
import { decodeStandardPayment } from '../../src/services/family-a/x402-standard/standard-payload.js';
import { resumeStandardPayments } from '../../src/services/family-a/x402-standard/x402-resume.service.js';
import { createHarness, createMarket, familyADeps, tokenBalance, type Harness } from './family-a.harness.js';
import { paymentSignature, requirementOf } from './x402-standard.payloads.js';

let h: Harness;
let market: Awaited<ReturnType<typeof createMarket>>;
beforeAll(async () => {
  h = await createHarness({ env: { FAMILY_A_X402_PAYER_PER_MINUTE: '2' } });
  market = await createMarket(h);
});
afterAll(async () => {
  await h?.close();
});

async function payerWithQuote(amount: number) {
  const payer = Keypair.generate();
  await h.ledger.mintUsdc(payer.publicKey, 20_000_000n);
  const wallet = payer.publicKey.toBase58();
  const res = await h.t.app.inject({
    method: 'POST',
    url: `/v2/markets/${market.slug}/trade/buy`,
    payload: { wallet, amount, side: 'YES' },
  });
  return { payer, wallet, accepted: requirementOf(res.headers['payment-required'] as string).accepted };
}

function buy(wallet: string, amount: number, header: string) {
  return h.t.app.inject({
    method: 'POST',
    url: `/v2/markets/${market.slug}/trade/buy`,
    headers: { 'payment-signature': header },
    payload: { wallet, amount, side: 'YES' },
  });
}

/** What payStandard records before sending, written as if the process died right after. */
async function recordWithoutSending(header: string, wallet: string, amountRaw: bigint, feeRaw: bigint, quoteId: string) {
  const deps = familyADeps(h);
  const { raw } = decodeStandardPayment(header);
  const { signed, signature } = coSign(deps.keys.x402FeePayer(), raw);
  const quote = await h.ctx.db.selectFrom('family_a_quotes').selectAll().where('id', '=', quoteId).executeTakeFirstOrThrow();
  const old = new Date(Date.now() - 60_000).toISOString();
  await insertX402Payment(h.ctx.db, {
    signature,
    kind: 'buy',
    quote_id: quoteId,
    market_id: quote.market_id,
    slug: market.slug,
    side: 'YES',
    payer: wallet,
    pay_to: market.metadata.option_wallets.Yes,
    amount_raw: amountRaw,
    account_fee_raw: feeRaw,
    quote_issued_at: quote.issued_at,
    transaction: Buffer.from(signed).toString('base64'),
    blockhash: JSON.parse(Buffer.from(header, 'base64').toString()).accepted.extra.recentBlockhash,
    state: 'sent',
    answer: null,
    created_at: old,
    updated_at: old,
  });
  return signature;
}

const quoteIdOf = (memo: unknown) => String(memo).replace('pmx-quote:', '');

describe('standard payments after a crash', () => {
  it('recorded, never sent: the resume job sends and honours it; the replay answers the same and delivers nothing more', async () => {
    const { payer, wallet, accepted } = await payerWithQuote(1);
    const header = paymentSignature({ payer, accepted });
    const fee = BigInt(accepted.extra!.accountOpeningFee as string);
    const signature = await recordWithoutSending(header, wallet, 1_000_000n, fee, quoteIdOf(accepted.extra!.memo));

    expect(await resumeStandardPayments(familyADeps(h))).toEqual({ decided: 1, pending: 0 });
    expect(await tokenBalance(h, wallet, market.cas.Yes)).toBe(2_000_000_000n); // 1 USDC / 0.0005
    expect(await tokenBalance(h, wallet, h.usdcMint)).toBe(20_000_000n - 1_000_000n - fee);

    const replay = await buy(wallet, 1, header);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(decodePaymentResponseHeader(replay.headers['payment-response'] as string)).toMatchObject({
      success: true,
      transaction: signature,
    });
    expect(replay.json().data).toMatchObject({ paymentTxHash: signature, tokenAmount: 2000 });
    const lookup = await h.t.app.inject({ method: 'GET', url: `/v2/payments/${signature}` });
    expect(lookup.json().data).toMatchObject({ kind: 'buy', x402State: 'honoured', status: 'confirmed' });
    expect(await tokenBalance(h, wallet, market.cas.Yes)).toBe(2_000_000_000n);
  });

  it('recorded, never sent, blockhash expired: decided expired, nothing moved, the replay answers 402', async () => {
    const { payer, wallet, accepted } = await payerWithQuote(1);
    const stale = { ...accepted, extra: { ...accepted.extra, recentBlockhash: bs58.encode(randomBytes(32)) } };
    const header = paymentSignature({ payer, accepted: stale });
    const signature = await recordWithoutSending(header, wallet, 1_000_000n, 0n, quoteIdOf(accepted.extra!.memo));

    expect(await resumeStandardPayments(familyADeps(h))).toEqual({ decided: 1, pending: 0 });
    expect(await tokenBalance(h, wallet, h.usdcMint)).toBe(20_000_000n);
    const replay = await buy(wallet, 1, header);
    expect(replay.statusCode, replay.body).toBe(402);
    expect(decodePaymentResponseHeader(replay.headers['payment-response'] as string)).toMatchObject({
      success: false,
      errorReason: 'transaction_expired',
    });
    const lookup = await h.t.app.inject({ method: 'GET', url: `/v2/payments/${signature}` });
    expect(lookup.json().data).toMatchObject({
      kind: 'unhonoured',
      x402State: 'expired',
      transfers: [],
      error: expect.stringMatching(/expired/),
    });
  });
});

describe('payer rate limit', () => {
  it('refuses a payer past FAMILY_A_X402_PAYER_PER_MINUTE with 429, before anything is sent', async () => {
    const { payer, wallet } = await payerWithQuote(1);
    for (let i = 0; i < 3; i++) {
      const res = await h.t.app.inject({
        method: 'POST',
        url: `/v2/markets/${market.slug}/trade/buy`,
        payload: { wallet, amount: 1, side: 'YES' },
      });
      const { accepted } = requirementOf(res.headers['payment-required'] as string);
      const paid = await buy(wallet, 1, paymentSignature({ payer, accepted }));
      expect(paid.statusCode, paid.body).toBe(i < 2 ? 200 : 429);
    }
    expect(await tokenBalance(h, wallet, market.cas.Yes)).toBe(4_000_000_000n);
    const sent = await h.ctx.db.selectFrom('family_a_x402_payments').select('signature').where('payer', '=', wallet).execute();
    expect(sent).toHaveLength(2);
  });
});

describe('the fee payer', () => {
  it('is funded on the embedded cluster, reported in pmx_family_a_fee_payer_lamports, and warned about when low', async () => {
    const base = familyADeps(h);
    const lines: string[] = [];
    const deps = {
      ...base,
      log: pino({ level: 'warn' }, { write: (line: string) => lines.push(line) }),
      settings: { ...base.settings, x402: { ...base.settings.x402, feePayerMinLamports: 10n ** 15n } },
    };
    const metrics = createMetrics();
    const run = x402ResumeProcessor(deps, metrics) as (...args: unknown[]) => Promise<{ feePayerLamports: string }>;
    const result = await run({ scheduledBy: 'test' });
    expect(BigInt(result.feePayerLamports)).toBeGreaterThan(9_000_000_000n); // topped up to 10 SOL at start, minus fees
    expect(await metrics.registry.getSingleMetricAsString('pmx_family_a_fee_payer_lamports')).toContain(
      `pmx_family_a_fee_payer_lamports ${result.feePayerLamports}`,
    );
    expect(lines.some((l) => l.includes('x402 fee payer is low on SOL'))).toBe(true);
    expect(lines.join('')).not.toMatch(/secretKey|seed/);
  });
});
