// The buy flow with PostgreSQL as the system of record (tsvector search index, int8 money).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_AVAILABLE, postgresDatabase } from '../helpers/databases.js';
import type { DatabaseHandle } from '../../db/database.js';
import { createHarness, createMarket, fundedUser, tokenBalance, transfer, xPayment, type Harness } from './family-a.harness.js';

describe.runIf(PG_AVAILABLE)('Family A on PostgreSQL', () => {
  let h: Harness;
  let db: DatabaseHandle;
  beforeAll(async () => {
    db = await postgresDatabase();
    h = await createHarness({ db });
  });
  afterAll(async () => {
    await h?.close();
    await db?.close();
  });

  it('creates, searches, buys and refuses a replay', async () => {
    const m = await createMarket(h, { name: 'Postgres powered prediction', description: 'tsvector search' });
    const found = (await h.t.app.inject({ method: 'GET', url: '/v2/markets/search?q=POSTGRES%20predict' })).json().data;
    expect(found.markets.map((x: { slug: string }) => x.slug)).toEqual([m.slug]);
    const user = await fundedUser(h);
    const wallet = user.publicKey.toBase58();
    const q = (await h.t.app.inject({ method: 'POST', url: `/v2/markets/${m.slug}/trade/buy`, payload: { wallet, amount: 0.01, side: 'NO' } })).json();
    const sig = await transfer(h, user, h.usdcMint, q.payment.payTo, 10_000n);
    const hdr = xPayment({ txHash: sig, amount: 0.01, payer: wallet, payTo: q.payment.payTo, asset: h.usdcMint, quoteIssuedAt: q.quote.issuedAt });
    const send = () => h.t.app.inject({ method: 'POST', url: `/v2/markets/${m.slug}/trade/buy`, headers: { 'x-payment': hdr }, payload: { wallet, amount: 0.01, side: 'NO' } });
    const [a, b] = await Promise.all([send(), send()]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
    expect(await tokenBalance(h, wallet, m.cas.No)).toBe(20_000_000n);
  });
});
