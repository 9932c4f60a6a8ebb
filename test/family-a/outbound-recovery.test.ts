// Exactly-once delivery under faults: dropped sends, expired blockhashes, duplicate jobs, and a
// daemon that recorded a payment but died before delivering (no workers until "restart").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { findOutbound } from '../../db/repositories/outbound-transactions.repository.js';
import { resumeUnfinished } from '../../jobs/processors/outbound/outbound-resume.processor.js';
import { familyABuilders, PURPOSES } from '../../src/services/family-a/family-a.builders.js';
import type { FamilyADeps } from '../../src/services/family-a/family-a.deps.js';
import { FamilyAKeys } from '../../src/services/family-a/family-a.keys.js';
import { recordOutboundIntent } from '../../src/services/outbound/outbound-intents.js';
import { OutboundSender } from '../../src/services/outbound/outbound-sender.js';
import { awaitOutbound } from '../../src/services/outbound/outbound-wait.js';
import { waitForQueuesDrained } from '../helpers/queues.js';
import { admin, createHarness, createMarket, fundedUser, tokenBalance, transfer, xPayment, type Harness } from './family-a.harness.js';

let h: Harness;
let market: Awaited<ReturnType<typeof createMarket>>;
beforeAll(async () => {
  h = await createHarness({ env: { FAMILY_A_DELIVERY_WAIT_MS: '300' } });
  market = await createMarket(h).catch(async () => createMarket(h));
});
afterAll(async () => {
  h?.ledger.faults.reset();
  await h?.close();
});

function sender(confirmTimeoutMs = 300, maxAttempts = 25): OutboundSender {
  const deps = { ...depsOf(h) };
  return new OutboundSender(h.ctx.db, h.client, familyABuilders(deps), pino({ level: 'silent' }), {
    confirmTimeoutMs,
    pollMs: 20,
    maxAttempts,
  });
}

function depsOf(x: Harness): FamilyADeps {
  return {
    db: x.ctx.db,
    dialect: x.ctx.dialect,
    chain: x.client,
    usdcMint: x.usdcMint,
    treasury: x.ctx.chain.wallets.treasury,
    keys: FamilyAKeys.load(x.ctx.config.keysDir),
    settings: {} as FamilyADeps['settings'],
    log: pino({ level: 'silent' }),
    dispatchOutbound: async () => {},
  };
}

describe('outbound transactions', () => {
  it('re-sends the same bytes while the blockhash lives, rebuilds once it expired, delivers once', async () => {
    const owner = (await fundedUser(h, 0n)).publicKey.toBase58();
    const id = await recordOutboundIntent(h.ctx.db, {
      idempotencyKey: `t-${owner}`,
      purpose: PURPOSES.deliverTokens,
      params: { mint: market.cas.No, owner, amountRaw: '7000000' },
    });
    h.ledger.faults.set({ dropRate: 1 });
    const s = sender();
    await expect(s.process(id)).rejects.toThrow(/not confirmed in time/);
    const first = (await findOutbound(h.ctx.db, id))!;
    expect(first.status).toBe('sent');
    await expect(s.process(id)).rejects.toThrow(/not confirmed in time/);
    expect((await findOutbound(h.ctx.db, id))!.signature).toBe(first.signature); // same bytes again
    h.ledger.faults.reset();
    h.ledger.advanceSlots(160); // the first blockhash expires
    const done = await s.process(id);
    expect(done.status).toBe('confirmed');
    expect(done.signature).not.toBe(first.signature);
    expect(await s.process(id)).toMatchObject({ status: 'confirmed', signature: done.signature });
    expect(await tokenBalance(h, owner, market.cas.No)).toBe(7_000_000n);
  });

  it('delivers two identical intents twice (distinct transactions even within one blockhash)', async () => {
    // Two buys of the same amount by the same wallet record two deliveries with identical
    // params. Built against the same blockhash they must still be two transactions, or the
    // second would be a duplicate of the first and deliver nothing.
    const owner = (await fundedUser(h, 0n)).publicKey.toBase58();
    const params = { mint: market.cas.Yes, owner, amountRaw: '3000000' };
    const a = await recordOutboundIntent(h.ctx.db, { idempotencyKey: `twin-a-${owner}`, purpose: PURPOSES.deliverTokens, params });
    const b = await recordOutboundIntent(h.ctx.db, { idempotencyKey: `twin-b-${owner}`, purpose: PURPOSES.deliverTokens, params });
    const s = sender(5_000);
    const [ra, rb] = await Promise.all([s.process(a), s.process(b)]);
    expect(ra.status).toBe('confirmed');
    expect(rb.status).toBe('confirmed');
    expect(ra.signature).not.toBe(rb.signature);
    expect(await tokenBalance(h, owner, market.cas.Yes)).toBe(6_000_000n);
  });

  it('refuses a second intent with the same idempotency key', async () => {
    await recordOutboundIntent(h.ctx.db, { idempotencyKey: 'dup-key', purpose: PURPOSES.deliverTokens, params: {} });
    await expect(
      recordOutboundIntent(h.ctx.db, { idempotencyKey: 'dup-key', purpose: PURPOSES.deliverTokens, params: {} }),
    ).rejects.toThrow();
  });

  it('finishes a delivery recorded by a daemon that died before sending, exactly once, despite duplicate jobs', async () => {
    await h.stopWorkers(); // the "dead" daemon: the API records, nobody delivers
    const user = await fundedUser(h);
    const wallet = user.publicKey.toBase58();
    const q = (
      await h.t.app.inject({ method: 'POST', url: `/v2/markets/${market.slug}/trade/buy`, payload: { wallet, amount: 2, side: 'YES' } })
    ).json();
    const sig = await transfer(h, user, h.usdcMint, q.payment.payTo, 2_000_000n);
    const res = await h.t.app.inject({
      method: 'POST',
      url: `/v2/markets/${market.slug}/trade/buy`,
      payload: { wallet, amount: 2, side: 'YES' },
      headers: {
        'x-payment': xPayment({
          txHash: sig,
          amount: 2,
          payer: wallet,
          payTo: q.payment.payTo,
          asset: h.usdcMint,
          quoteIssuedAt: q.quote.issuedAt,
        }),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.deliveryStatus).toBe('pending');
    expect(await tokenBalance(h, wallet, market.cas.Yes)).toBe(0n);

    // "Restart": the startup scan and the schedule both enqueue; the original job is still queued.
    expect(await resumeUnfinished(h.ctx.db, h.ctx.queues, 0)).toBeGreaterThanOrEqual(1);
    await resumeUnfinished(h.ctx.db, h.ctx.queues, 0);
    h.startWorkers();
    const payment = await h.ctx.db.selectFrom('family_a_payments').selectAll().where('signature', '=', sig).executeTakeFirstOrThrow();
    const done = await awaitOutbound(h.ctx.db, payment.outbound_id!, 15_000);
    expect(done.status).toBe('confirmed');
    // The duplicate jobs have run too. A duplicate that retried (not confirmed in time on a loaded
    // machine) waits out an exponential backoff, past a minute by its seventh attempt: its retries
    // are promoted, so the wait is for the jobs to run, not for their backoff.
    await waitForQueuesDrained([h.ctx.queues.get('platform')], 60_000, { promoteDelayed: true });
    expect(await tokenBalance(h, wallet, market.cas.Yes)).toBe(4_000_000_000n);
  }, 90_000);

  it('does not wait for bytes the node rejected in preflight, and keeps them for the retry', async () => {
    const owner = (await fundedUser(h, 0n)).publicKey.toBase58();
    const bogusMint = (await fundedUser(h, 0n)).publicKey.toBase58(); // a wallet, not a mint
    const id = await recordOutboundIntent(h.ctx.db, {
      idempotencyKey: `bad-${owner}`,
      purpose: PURPOSES.deliverTokens,
      params: { mint: bogusMint, owner, amountRaw: '1' },
    });
    const s = sender(5_000);
    const t0 = Date.now();
    await expect(s.process(id)).rejects.toThrow(/rejected by the node/);
    expect(Date.now() - t0).toBeLessThan(2_000);
    const row = (await findOutbound(h.ctx.db, id))!;
    expect(row.status).toBe('pending');
    expect(row.signature).toBeTruthy();
    expect(row.last_error).toMatch(/rejected by the node/);
  });

  it('gives up after its attempts with the real reason on the row, and an operator re-drives it', async () => {
    const owner = (await fundedUser(h, 0n)).publicKey.toBase58();
    const bogusMint = (await fundedUser(h, 0n)).publicKey.toBase58();
    const id = await recordOutboundIntent(h.ctx.db, {
      idempotencyKey: `bad2-${owner}`,
      purpose: PURPOSES.deliverTokens,
      params: { mint: bogusMint, owner, amountRaw: '1' },
    });
    const s = sender(2_000, 2);
    await expect(s.process(id)).rejects.toThrow(/rejected by the node/);
    await expect(s.process(id)).rejects.toThrow(/rejected by the node/);
    expect(await s.process(id)).toMatchObject({ status: 'failed' });
    const row = (await findOutbound(h.ctx.db, id))!;
    // Was "gave up after 25 attempts: " with the reason only in the log.
    expect(row.last_error).toMatch(/^gave up after 2 attempts: outbound .* rejected by the node: .+/);
    const failed = (await h.t.app.inject({ method: 'GET', url: '/v2/admin/outbound?status=failed', headers: admin })).json().data;
    expect(failed.find((r: { id: string }) => r.id === id)).toMatchObject({ lastError: row.last_error });
    const retry = await h.t.app.inject({ method: 'POST', url: `/v2/admin/outbound/${id}/retry`, headers: admin });
    expect(retry.json().data).toMatchObject({ id, retry: 'reset' });
    const again = (await findOutbound(h.ctx.db, id))!;
    expect(again.status).toBe('pending');
    expect(again.attempts).toBeLessThan(25); // a fresh budget (the dispatched job may already be using it)
  });
});
