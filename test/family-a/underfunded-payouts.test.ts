// Issue 8 item 3: a payout the platform wallets cannot cover used to fail its attempts and end
// `failed` with "gave up after 25 attempts: " (the reason only in the log). Now it waits for funds:
// the reason and the shortfall are on the row, funding checks do not use up attempts, the wait
// backs off, and the payout goes through by itself once an operator funds the wallet.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOutbound, listUnfinishedOutbound } from '../../db/repositories/outbound-transactions.repository.js';
import { resumeUnfinished } from '../../jobs/processors/outbound/outbound-resume.processor.js';
import { familyABuilders, PURPOSES } from '../../src/services/family-a/family-a.builders.js';
import type { FamilyADeps } from '../../src/services/family-a/family-a.deps.js';
import { FamilyAKeys } from '../../src/services/family-a/family-a.keys.js';
import { recordOutboundIntent } from '../../src/services/outbound/outbound-intents.js';
import { OutboundSender } from '../../src/services/outbound/outbound-sender.js';
import { pollUntil } from '../../src/infra/poll.js';
import { createMetrics } from '../../src/infra/metrics.js';
import { moneyCounts } from '../../src/services/family-a/money-admin.service.js';
import { admin, createHarness, createMarket, fundedUser, tokenBalance, transfer, xPayment, type Harness } from './family-a.harness.js';

let h: Harness;
let keys: FamilyAKeys;
beforeAll(async () => {
  h = await createHarness({ env: { FAMILY_A_DELIVERY_WAIT_MS: '5000' } });
  keys = FamilyAKeys.load(h.ctx.config.keysDir);
});
afterAll(async () => {
  await h?.close();
});

function sender(maxAttempts: number, backoffMs: number): OutboundSender {
  const deps: FamilyADeps = {
    db: h.ctx.db,
    dialect: h.ctx.dialect,
    chain: h.client,
    usdcMint: h.usdcMint,
    treasury: h.ctx.chain.wallets.treasury,
    keys,
    settings: {} as FamilyADeps['settings'],
    log: pino({ level: 'silent' }),
    dispatchOutbound: async () => {},
  };
  return new OutboundSender(h.ctx.db, h.client, familyABuilders(deps), pino({ level: 'silent' }), {
    confirmTimeoutMs: 5_000,
    pollMs: 20,
    maxAttempts,
    fundingBackoffMs: () => backoffMs,
  });
}

describe('underfunded payouts', () => {
  it('wait for funds with the reason on the row, never use up their attempts, and pay once funded', async () => {
    const owner = (await fundedUser(h, 0n)).publicKey.toBase58();
    const amount = 987_654_321_000n; // far beyond anything the platform wallet holds
    const id = await recordOutboundIntent(h.ctx.db, {
      idempotencyKey: `underfunded-${owner}`,
      purpose: PURPOSES.payUsdc,
      params: { marketId: 'no-such-market', sources: ['YES', 'PLATFORM'], to: owner, amountRaw: amount.toString() },
    });
    const s = sender(2, 60_000);
    // Five funding checks with a budget of two attempts: the intent never ends `failed`.
    for (let i = 0; i < 5; i++) expect(await s.process(id)).toMatchObject({ status: 'pending', awaitingFunds: true });
    const row = (await findOutbound(h.ctx.db, id))!;
    expect(row).toMatchObject({ status: 'pending', attempts: 0, funding_checks: 5 });
    expect(row.last_error).toMatch(/lack \d+ raw USDC for this payout of 987654321000; fund the platform wallet/);
    expect(JSON.parse(row.shortfall!)).toMatchObject({ asset: h.usdcMint, missingRaw: expect.stringMatching(/^\d+$/) });
    expect(Date.parse(row.awaiting_funds_since!)).toBeLessThanOrEqual(Date.parse(row.updated_at));
    // The resume scan leaves it alone until its next check is due (backoff), then picks it up.
    const later = new Date(Date.now() + 120_000).toISOString();
    expect((await listUnfinishedOutbound(h.ctx.db, later, 500)).map((r) => r.id)).not.toContain(id);
    expect((await listUnfinishedOutbound(h.ctx.db, later, 500, later)).map((r) => r.id)).toContain(id);

    const listed = (await h.t.app.inject({ method: 'GET', url: '/v2/admin/outbound?status=awaiting_funds', headers: admin })).json().data;
    expect(listed.find((r: { id: string }) => r.id === id)).toMatchObject({
      status: 'pending',
      awaitingFundsSince: row.awaiting_funds_since,
      shortfall: { asset: h.usdcMint },
    });

    // The operator funds the platform wallet; the next check pays, with no re-drive needed.
    await h.ledger.mintUsdc(keys.platform().publicKey, amount);
    const done = await sender(2, 0).process(id);
    expect(done.status).toBe('confirmed');
    expect(await tokenBalance(h, owner, h.usdcMint)).toBe(amount);
    const finished = (await findOutbound(h.ctx.db, id))!;
    expect(finished.awaiting_funds_since).toBeNull();
    expect(finished.next_attempt_at).toBeNull();
  });

  it('is picked up again by the resume scan and the workers once its backoff ran out', async () => {
    const owner = (await fundedUser(h, 0n)).publicKey.toBase58();
    const amount = 876_543_210_000n;
    const id = await recordOutboundIntent(h.ctx.db, {
      idempotencyKey: `underfunded-2-${owner}`,
      purpose: PURPOSES.payUsdc,
      params: { marketId: 'no-such-market', sources: ['PLATFORM'], to: owner, amountRaw: amount.toString() },
    });
    expect(await sender(25, 300).process(id)).toMatchObject({ awaitingFunds: true });
    await h.ledger.mintUsdc(keys.platform().publicKey, amount);
    const due = Date.parse((await findOutbound(h.ctx.db, id))!.next_attempt_at!);
    await pollUntil(async () => (Date.now() >= due ? true : undefined), { timeoutMs: 5_000 });
    // The resume scan (here run by hand, as its schedule would) re-enqueues it under a fresh job id.
    expect(await resumeUnfinished(h.ctx.db, h.ctx.queues, 0)).toBeGreaterThanOrEqual(1);
    const confirmed = await pollUntil(
      async () => {
        const r = await findOutbound(h.ctx.db, id);
        return r?.status === 'confirmed' ? r : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(confirmed?.status).toBe('confirmed');
    expect(await tokenBalance(h, owner, h.usdcMint)).toBe(amount);
  });
});

describe('an underfunded claim, as a client and an operator see it', () => {
  it('warns at eligibility, answers awaiting_funds at confirm, shows in the lookup, the metric and the money page, pays once funded', async () => {
    // marketLimit 1e12: one winning token pays 10,000 USDC, far beyond what anyone paid in.
    const m = await createMarket(h, { marketLimit: 1_000_000_000_000 });
    const user = await fundedUser(h);
    const wallet = user.publicKey.toBase58();
    const q = (
      await h.t.app.inject({ method: 'POST', url: `/v2/markets/${m.slug}/trade/buy`, payload: { wallet, amount: 0.01, side: 'YES' } })
    ).json();
    const paid = await transfer(h, user, h.usdcMint, q.payment.payTo, 10_000n);
    const bought = await h.t.app.inject({
      method: 'POST',
      url: `/v2/markets/${m.slug}/trade/buy`,
      payload: { wallet, amount: 0.01, side: 'YES' },
      headers: {
        'x-payment': xPayment({
          txHash: paid,
          amount: 0.01,
          payer: wallet,
          payTo: q.payment.payTo,
          asset: h.usdcMint,
          quoteIssuedAt: q.quote.issuedAt,
        }),
      },
    });
    expect(bought.statusCode, bought.body).toBe(200); // 20 tokens
    await h.t.app.inject({ method: 'POST', url: `/v2/admin/markets/${m.slug}/resolve`, headers: admin, payload: { outcome: 'YES' } });

    const info = (await h.t.app.inject({ method: 'POST', url: `/v2/markets/${m.slug}/claim`, payload: { wallet } })).json().data;
    expect(info.payoutUsdc).toBe(200_000); // 20 tokens × 1e12 / 1e8
    expect(info.payoutFunding).toMatchObject({ covered: false });
    expect(info.warning).toMatch(
      /less than this 200000 USDC payout: a confirmed claim is recorded and paid automatically once an operator funds them/,
    );

    const sig = await transfer(h, user, m.cas.Yes, info.nextStep.sendTo, 20_000_000n);
    const t0 = Date.now();
    const confirmed = await h.t.app.inject({
      method: 'POST',
      url: `/v2/markets/${m.slug}/claim/confirm`,
      payload: { wallet, transferTxHash: sig },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(Date.now() - t0).toBeLessThan(5_000); // answered as soon as the wait began, not after FAMILY_A_DELIVERY_WAIT_MS
    expect(confirmed.json().data).toMatchObject({ payoutUsdc: 200_000, deliveryStatus: 'awaiting_funds', usdcPayoutTxHash: null });
    expect(confirmed.json().data.payoutWarning).toMatch(
      /cannot cover this payout yet \(.*lack .* raw USDC.*\); it is recorded and paid automatically/,
    );

    const lookup = (await h.t.app.inject({ method: 'GET', url: `/v2/payments/${sig}` })).json().data;
    expect(lookup).toMatchObject({ kind: 'claim', status: 'awaiting_funds', error: expect.stringMatching(/lack \d+ raw USDC/) });

    const metrics = createMetrics();
    metrics.setMoneySource(() => moneyCounts({ db: h.ctx.db }));
    const scraped = await metrics.registry.metrics();
    expect(scraped).toMatch(/pmx_outbound_awaiting_funds\{purpose="family-a.pay-usdc"\} [1-9]/);
    expect(scraped).toMatch(/pmx_outbound_awaiting_funds_oldest_seconds\{purpose="family-a.pay-usdc"\} /);

    const page = await h.t.app.inject({ method: 'GET', url: '/admin/money', headers: admin });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/wait for funds: fund the wallets named below/);
    expect(page.body).toContain('family-a.pay-usdc');
    expect((await h.t.app.inject({ method: 'GET', url: '/admin/money' })).statusCode).toBe(401);
    expect((await h.t.app.inject({ method: 'GET', url: '/admin/money', headers: { accept: 'text/html' } })).headers.location).toBe(
      '/admin/login?next=%2Fadmin%2Fmoney',
    );

    // The operator funds the platform wallet and asks for a check now (else the backoff decides).
    await h.ledger.mintUsdc(keys.platform().publicKey, 200_000_000_000n);
    const payout = (
      await h.ctx.db.selectFrom('family_a_payments').select('outbound_id').where('signature', '=', sig).executeTakeFirstOrThrow()
    ).outbound_id!;
    const retry = await h.t.app.inject({ method: 'POST', url: `/v2/admin/outbound/${payout}/retry`, headers: admin });
    expect(retry.json().data).toMatchObject({ retry: 'expedited' });
    const done = await pollUntil(async () => ((await findOutbound(h.ctx.db, payout))?.status === 'confirmed' ? true : undefined), {
      timeoutMs: 15_000,
    });
    expect(done).toBe(true);
    expect(await tokenBalance(h, wallet, h.usdcMint)).toBe(10_000_000_000n - 10_000n + 200_000_000_000n);
    expect((await h.t.app.inject({ method: 'GET', url: `/v2/payments/${sig}` })).json().data.status).toBe('confirmed');
  });
});
