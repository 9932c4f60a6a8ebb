// Step 1 records a quote per request, refused or not; the money sweep deletes those that expired
// more than FAMILY_A_PRESENT_GRACE_SEC ago, in bounded batches, and keeps the rest.
import { randomUUID } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertQuote } from '../../db/repositories/family-a-trades.repository.js';
import { sweepFamilyAMoney } from '../../src/services/family-a/money-sweep.service.js';
import { createHarness, createMarket, familyADeps, type Harness } from './family-a.harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const quotes = async () =>
  Number(
    (
      await h.ctx.db
        .selectFrom('family_a_quotes')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('expired quotes', () => {
  it('are deleted by the money sweep once expiry + grace passed, not before', async () => {
    const m = await createMarket(h);
    const deps = familyADeps(h);
    const wallet = Keypair.generate().publicKey.toBase58();
    const before = await quotes();
    const issuedAt = Date.now();
    for (let i = 0; i < 3; i++) {
      const res = await h.t.app.inject({
        method: 'POST',
        url: `/v2/markets/${m.slug}/trade/buy`,
        payload: { wallet, amount: 1 + i, side: 'YES' },
      });
      expect(res.statusCode).toBe(402); // a quote nobody will ever pay
    }
    expect(await quotes()).toBe(before + 3);
    const expiredAfter = issuedAt + deps.settings.quoteTtlMs + deps.settings.presentGraceSec * 1000;
    expect((await sweepFamilyAMoney(deps, expiredAfter - 5_000)).quotesDeleted).toBe(0);
    expect(await quotes()).toBe(before + 3);
    expect((await sweepFamilyAMoney(deps, expiredAfter + 5_000)).quotesDeleted).toBe(before + 3);
    expect(await quotes()).toBe(0);
  });

  it('go in batches, so a backlog of thousands drains in one run, and unexpired quotes stay', async () => {
    const deps = familyADeps(h);
    const now = Date.now();
    const old = new Date(now - 86_400_000).toISOString();
    const fresh = new Date(now).toISOString();
    const rows = Array.from({ length: 1_203 }, (_, i) => ({
      id: randomUUID(),
      market_id: 'm',
      wallet: `w${i}`,
      side: 'YES' as const,
      kind: 'buy' as const,
      amount_raw: 1n,
      issued_at: old,
      expires_at: old,
    }));
    for (const row of rows) await insertQuote(deps.db, row);
    await insertQuote(deps.db, { ...rows[0]!, id: randomUUID(), issued_at: fresh, expires_at: new Date(now + 120_000).toISOString() });
    expect((await sweepFamilyAMoney(deps, now)).quotesDeleted).toBe(1_203);
    expect(await quotes()).toBe(1);
  });
});
