// Issue 8 item 5: a market's tickers are stored (paid creation `options`, admin `yesTicker`/
// `noTicker`) and `side` accepts them case-insensitively (spec rule 1, @pmx/programs parseOutcomeSide).
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, createHarness, createMarket, fundedUser, tokenBalance, transfer, xPayment, type Harness } from './family-a.harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const post = (url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  h.t.app.inject({ method: 'POST', url, payload, headers });

describe('Family A tickers', () => {
  it('admin create stores UP/DOWN; side accepts them in any case and buys the right outcome', async () => {
    const m = await createMarket(h, { yesTicker: 'UP', noTicker: 'DOWN' });
    expect(m).toMatchObject({ options: ['UP', 'DOWN'], yesTicker: 'UP', noTicker: 'DOWN' });
    const user = await fundedUser(h);
    const wallet = user.publicKey.toBase58();
    const up = await post(`/v2/markets/${m.slug}/trade/buy`, { wallet, amount: 1, side: 'up' });
    expect(up.statusCode, up.body).toBe(402);
    expect(up.json().quote.side).toBe('YES');
    expect(up.json().payment.payTo).toBe(m.metadata.option_wallets.Yes);
    const down = await post(`/v2/markets/${m.slug}/trade/buy`, { wallet, amount: 1, side: 'Down' });
    expect(down.statusCode, down.body).toBe(402);
    expect(down.json().quote.side).toBe('NO');
    const q = down.json();
    const sig = await transfer(h, user, h.usdcMint, q.payment.payTo, 1_000_000n);
    const paid = await post(
      `/v2/markets/${m.slug}/trade/buy`,
      { wallet, amount: 1, side: 'DOWN' },
      {
        'x-payment': xPayment({
          txHash: sig,
          amount: 1,
          payer: wallet,
          payTo: q.payment.payTo,
          asset: h.usdcMint,
          quoteIssuedAt: q.quote.issuedAt,
        }),
      },
    );
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data.side).toBe('NO');
    expect(await tokenBalance(h, wallet, m.cas.No)).toBe(2_000_000_000n);
    const other = await post(`/v2/markets/${m.slug}/trade/buy`, { wallet, amount: 1, side: 'SIDEWAYS' });
    expect(other.statusCode).toBe(400);
    expect(other.json().error.message).toMatch(/UP\/DOWN/);
  });

  it('paid creation stores its options as the tickers', async () => {
    const creator = Keypair.generate().publicKey.toBase58();
    const body = {
      name: 'Will BTC go up this week?',
      description: 'UP or DOWN',
      end_date: '2031-06-01T00:00:00Z',
      options: ['UP', 'DOWN'],
      creator_wallet: creator,
    };
    const r1 = await post('/v2/markets', body);
    expect(r1.statusCode, r1.body).toBe(402);
    const details = await h.t.app.inject({ method: 'GET', url: `/v2/markets/${r1.json().slug}/details` });
    expect(details.statusCode, details.body).toBe(200);
    expect(details.json().data).toMatchObject({ options: ['UP', 'DOWN'], yesTicker: 'UP', noTicker: 'DOWN' });
  });

  it('refuses ambiguous tickers with 400 and records nothing', async () => {
    for (const [yesTicker, noTicker] of [
      ['UP', 'up'],
      ['NO', 'DOWN'],
      ['UP', 'YES'],
      [' ', 'DOWN'],
    ]) {
      const name = `Ambiguous ${yesTicker}/${noTicker} ${Math.random().toString(36).slice(2, 8)}`;
      const res = await post('/v2/admin/markets', { name, description: 'x', endDate: '2030-01-01T00:00:00Z', yesTicker, noTicker }, admin);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      const found = (await h.t.app.inject({ method: 'GET', url: `/v2/markets?q=${encodeURIComponent('Ambiguous')}` })).json().data;
      expect(found.markets).toEqual([]);
    }
  });
});
