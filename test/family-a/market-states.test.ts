// Market-state refusals: trading a resolved market, resolving twice, taken slugs, sell refusals,
// and Family B rows in the shared catalog.
import { randomUUID } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMarket } from '../../db/repositories/family-a-markets.repository.js';
import { admin, createHarness, createMarket, fundedUser, transfer, xPayment, type Harness } from './family-a.harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const post = (url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  h.t.app.inject({ method: 'POST', url, payload, headers });

describe('Family A market states', () => {
  it('refuses trading a resolved market (409) and a second, different resolution', async () => {
    const m = await createMarket(h);
    expect((await post(`/v2/admin/markets/${m.slug}/resolve`, { outcome: 'NO' }, admin)).statusCode).toBe(200);
    expect((await post(`/v2/admin/markets/${m.slug}/resolve`, { outcome: 'NO' }, admin)).statusCode).toBe(200); // idempotent
    const twice = await post(`/v2/admin/markets/${m.slug}/resolve`, { outcome: 'YES' }, admin);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe('ALREADY_RESOLVED');
    const buy = await post(`/v2/markets/${m.slug}/trade/buy`, { wallet: Keypair.generate().publicKey.toBase58(), amount: 1, side: 'YES' });
    expect(buy.statusCode).toBe(409);
    expect(buy.json()).toMatchObject({ error: { code: 'MARKET_NOT_ACTIVE' }, marketStatus: 'resolved', marketSlug: m.slug });
  });

  it('refuses a taken or all-digit slug', async () => {
    await createMarket(h, { slug: 'taken-slug' });
    const again = await post(
      '/v2/admin/markets',
      { name: 'Another one', description: 'x', endDate: '2030-01-01T00:00:00Z', slug: 'taken-slug' },
      admin,
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('SLUG_TAKEN');
    const digits = await post(
      '/v2/admin/markets',
      { name: 'Digits', description: 'x', endDate: '2030-01-01T00:00:00Z', slug: '12345' },
      admin,
    );
    expect(digits.statusCode).toBe(400);
  });

  it('refuses a sell whose tokens went to the wrong wallet, or came from another wallet', async () => {
    const m = await createMarket(h);
    const seller = await fundedUser(h);
    const wallet = seller.publicKey.toBase58();
    const q = (await post(`/v2/markets/${m.slug}/trade/buy`, { wallet, amount: 1, side: 'YES' })).json();
    const paid = await transfer(h, seller, h.usdcMint, q.payment.payTo, 1_000_000n);
    const bought = await post(
      `/v2/markets/${m.slug}/trade/buy`,
      { wallet, amount: 1, side: 'YES' },
      {
        'x-payment': xPayment({
          txHash: paid,
          amount: 1,
          payer: wallet,
          payTo: q.payment.payTo,
          asset: h.usdcMint,
          quoteIssuedAt: q.quote.issuedAt,
        }),
      },
    );
    expect(bought.statusCode).toBe(200);
    const sq = (await post(`/v2/markets/${m.slug}/trade/sell`, { wallet, tokenAmount: 100, side: 'YES' })).json();
    const wrong = await transfer(h, seller, m.cas.Yes, m.metadata.option_wallets.No, 100_000_000n, true);
    const hdr = (sig: string) => ({
      'x-payment': xPayment({
        txHash: sig,
        amount: 100,
        payer: wallet,
        payTo: sq.payment.sendTo,
        asset: m.cas.Yes,
        quoteIssuedAt: sq.quote.issuedAt,
      }),
    });
    const r = await post(`/v2/markets/${m.slug}/trade/sell`, { wallet, tokenAmount: 100, side: 'YES' }, hdr(wrong));
    expect(r.statusCode).toBe(402);
    expect(r.json().error.message).toMatch(/^Token transfer verification failed: wrong recipient/);
    const tooSmall = await post(`/v2/markets/${m.slug}/trade/sell`, { wallet, tokenAmount: 0.000001, side: 'YES' });
    expect(tooSmall.statusCode).toBe(400);
  });

  it('lists Family B markets from the shared catalog and refuses Family A actions on them', async () => {
    const now = new Date().toISOString();
    await insertMarket(h.ctx.db, {
      id: randomUUID(),
      slug: 'family-b-amm-market',
      kind: 'amm',
      chain_market_id: 7,
      name: 'AMM market seen by Family A',
      description: 'from confirm',
      category: '',
      tags: '[]',
      image_urls: '{}',
      status: 'active',
      yes_ticker: 'UP',
      no_ticker: 'DOWN',
      published: 1,
      created_at: now,
      updated_at: now,
    });
    const found = (await h.t.app.inject({ method: 'GET', url: '/v2/markets/search?q=amm%20market' })).json().data;
    expect(found.markets[0]).toMatchObject({ slug: 'family-b-amm-market', status: 'active' });
    const details = (await h.t.app.inject({ method: 'GET', url: '/v2/markets/family-b-amm-market/details' })).json().data;
    expect(details).toMatchObject({ kind: 'amm', metadata: { chain_market_id: 7, option_wallets: null } });
    const buy = await post('/v2/markets/family-b-amm-market/trade/buy', {
      wallet: Keypair.generate().publicKey.toBase58(),
      amount: 1,
      side: 'UP',
    });
    expect(buy.statusCode).toBe(400);
    expect(buy.json().error.message).toMatch(/Family B/);
    const live = (await h.t.app.inject({ method: 'GET', url: '/v2/markets?status=live' })).json().data;
    expect(live.markets.map((x: { slug: string }) => x.slug)).toContain('family-b-amm-market');
  });
});
