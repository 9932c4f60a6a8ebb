/**
 * POST /v2/markets/create refusals: every documented limit answers 400 in the Family B envelope
 * and changes nothing (no market id reserved, no counter moved); malformed wallets are 400; a
 * valid create reserves the next id; init-mints by a stranger is 403.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Keypair } from '@solana/web3.js';
import { confirmProof, createBody, fundedWallet, get, openHarness, post, USDC, type BHarness } from './family-b.harness.js';

let h: BHarness;
let creator: Keypair;
beforeAll(async () => {
  h = await openHarness();
  creator = await fundedWallet(h);
});
afterAll(async () => h?.close());

async function reservations(): Promise<number> {
  const row = await h.daemon.db.db
    .selectFrom('market_id_reservations')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
async function counter(): Promise<number> {
  return ((await get(h, '/v2/config')).json().data as { marketCounter: number }).marketCounter;
}

const year = (y: number) => Math.floor(Date.UTC(y, 0, 1) / 1000);

describe('POST /v2/markets/create limits', () => {
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['title longer than 80', { title: 'x'.repeat(81) }, /title/],
    ['description longer than 120', { description: 'd'.repeat(121) }, /description/],
    ['yesTicker longer than 10', { yesTicker: 'ELEVENCHARS' }, /yesTicker/],
    ['noTicker longer than 10', { noTicker: 'ELEVENCHARS' }, /noTicker/],
    ['equal tickers', { yesTicker: 'SAME', noTicker: 'same' }, /ticker/i],
    ['ticker equal to the other canonical side', { yesTicker: 'NO', noTicker: 'DOWN' }, /ticker/i],
    ['resolutionTime 0', { resolutionTime: 0 }, /resolution/i],
    ['resolutionTime negative', { resolutionTime: -5 }, /resolution/i],
    ['resolutionTime in 2100', { resolutionTime: year(2100) }, /resolution/i],
    ['resolutionTime in 2000', { resolutionTime: year(2000) }, /resolution/i],
    ['seedAmount below the AMM minimum', { seedAmount: 500_000 }, /seed/i],
    ['tradeFeeBps 99', { tradeFeeBps: 99 }, /tradeFeeBps/],
    ['tradeFeeBps 401', { tradeFeeBps: 401 }, /tradeFeeBps/],
    ['fractional seedAmount', { seedAmount: 1.5 }, /seedAmount/],
    ['missing title', { title: undefined }, /title/],
  ];

  it.each(cases)('%s → 400, nothing reserved', async (_name, override, message) => {
    const before = { reservations: await reservations(), counter: await counter() };
    const body = { ...createBody(creator), ...override };
    const res = await post(h, '/v2/markets/create', body);
    expect(res.statusCode, res.body).toBe(400);
    const json = res.json();
    expect(json.success).toBe(false);
    expect(typeof json.error).toBe('string');
    expect(json.error).toMatch(message);
    expect(await reservations()).toBe(before.reservations);
    expect(await counter()).toBe(before.counter);
  });

  it.each(['not-a-wallet', '0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl', '1'.repeat(45), ''])('malformed creator wallet %j → 400', async (wallet) => {
    const res = await post(h, '/v2/markets/create', { ...createBody(creator), wallet });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: expect.stringMatching(/wallet/) });
    expect(await reservations()).toBe(0);
  });

  it('a valid create reserves the next id above the counter; a second create gets the next one', async () => {
    const first = await post(h, '/v2/markets/create', createBody(creator, { seedAmount: 1 * USDC, tradeFeeBps: 100 }));
    expect(first.statusCode, first.body).toBe(200);
    const second = await post(h, '/v2/markets/create', createBody(creator, { seedAmount: 0, tradeFeeBps: 400 }));
    expect(second.statusCode, second.body).toBe(200);
    const [a, b] = [first.json().data, second.json().data];
    expect(a.marketId).toBe((await counter()) + 1);
    expect(b.marketId).toBe(a.marketId + 1);
    expect(a.marketType).toBe('amm');
    expect(b.marketType).toBe('pool');
    expect(typeof a.transaction).toBe('string');
    expect(await reservations()).toBe(2);
  });

  it('boundary values are accepted: 80/120/10 characters, fees 100 and 400, seed exactly 1 USDC', async () => {
    const res = await post(h, '/v2/markets/create', {
      ...createBody(creator, { seedAmount: USDC, tradeFeeBps: 400 }),
      title: 't'.repeat(80),
      description: 'd'.repeat(120),
      yesTicker: 'Y'.repeat(10),
      noTicker: 'N'.repeat(10),
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('init-mints and confirm on markets that do not exist or belong to someone else', () => {
  it('init-mints of an unknown market → 404', async () => {
    const res = await post(h, '/v2/markets/987654/init-mints', { wallet: creator.publicKey.toBase58() });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, error: expect.stringMatching(/Market not found/) });
  });

  it('confirm of an unknown market → 404', async () => {
    const res = await post(h, '/v2/markets/confirm', {
      marketId: 987654,
      wallet: creator.publicKey.toBase58(),
      ...confirmProof(creator, 987654),
      title: 'x',
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().success).toBe(false);
  });
});
