/**
 * Input strictness on a real market (issue 10 items 5, 7, 8): only canonical decimal ids address
 * a market, malformed ids answer 400 in Family B's envelope with a code, Family B-only actions on
 * a non-numeric id answer in B's envelope, bodies are never type-coerced, and an integer id has no
 * /details view. Every refusal leaves the market untouched (its view is byte-identical after).
 */
import type { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMarket, fundedWallet, get, openHarness, post, USDC, waitFor, type BHarness } from './family-b.harness.js';

let h: BHarness;
let creator: Keypair, alice: Keypair;
let id: number;
const w = (k: Keypair) => k.publicKey.toBase58();

beforeAll(async () => {
  h = await openHarness();
  [creator, alice] = await Promise.all([fundedWallet(h), fundedWallet(h)]);
  id = await createMarket(h, creator);
});
afterAll(async () => h?.close());

describe('market ids in paths', () => {
  const spellings = (n: number) => [`${n}.0`, `+${n}`, `0${n}`, `0x${n.toString(16)}`, `%20${n}`, `${n}%20`, '-1', '1.5', '1e3'];

  it('odd spellings of a real id answer 400 INVALID_MARKET_ID (B envelope) on every id route and act on nothing', async () => {
    // The index has caught up with init-mints before the baseline is taken.
    const before = await waitFor('indexed mints', async () => {
      const res = await get(h, `/v2/markets/${id}`);
      return res.json().data.mintsInitialized ? res.body : undefined;
    });
    for (const s of spellings(id)) {
      const routes = [
        () => get(h, `/v2/markets/${s}`),
        () => get(h, `/v2/markets/${s}/quote?side=YES&amount=1000000`),
        () => get(h, `/v2/positions/${w(alice)}/${s}`),
        () => post(h, `/v2/markets/${s}/buy`, { wallet: w(alice), side: 'YES', amount: USDC }),
        () => post(h, `/v2/markets/${s}/redeem`, { wallet: w(alice), side: 'YES' }),
        () => post(h, `/v2/markets/${s}/init-mints`, { wallet: w(creator) }),
      ];
      for (const call of routes) {
        const res = await call();
        expect({ s, status: res.statusCode }).toEqual({ s, status: 400 });
        const body = res.json();
        expect(body.success).toBe(false);
        expect(typeof body.error).toBe('string'); // never "[object Object]"
        expect(body.error).not.toContain('[object Object]');
        expect(typeof body.code).toBe('string');
      }
    }
    expect((await get(h, `/v2/markets/${id}`)).body).toBe(before);
  });

  it('a Family B action on a non-numeric id answers in B envelope with a code', async () => {
    for (const path of ['/v2/markets/abc/buy', '/v2/markets/abc/sell', '/v2/markets/abc/redeem', '/v2/markets/abc/quote?side=YES&amount=1']) {
      const res = path.includes('quote') ? await get(h, path) : await post(h, path, { wallet: w(alice), side: 'YES', amount: USDC });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: expect.any(String), code: expect.any(String) });
    }
  });

  it('GET /v2/markets/{id}/details is 404 in B envelope, pointing at GET /v2/markets/{id}', async () => {
    const res = await get(h, `/v2/markets/${id}/details`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, code: 'NOT_FOUND', error: expect.stringContaining(`GET /v2/markets/${id}`) });
  });

  it('a slug that starts with digits is still a Family A slug', async () => {
    const res = await get(h, '/v2/markets/2026-world-cup');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, error: { code: expect.any(String) } });
  });
});

describe('bodies are not type-coerced', () => {
  it('an array wallet, a numeric title or a string amount answer 400 and build nothing', async () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      [`/v2/markets/${id}/buy`, { wallet: [w(alice)], side: 'YES', amount: USDC }],
      [`/v2/markets/${id}/buy`, { wallet: w(alice), side: 'YES', amount: String(USDC) }],
      ['/v2/markets/create', { wallet: w(creator), title: 5, description: 'd', yesTicker: 'A', noTicker: 'B', resolutionTime: 2_000_000_000, seedAmount: 0, tradeFeeBps: 200 }],
      ['/v2/markets/create', { wallet: w(creator), title: 't', description: 'd', yesTicker: 'A', noTicker: 'B', resolutionTime: '2000000000', seedAmount: 0, tradeFeeBps: 200 }],
    ];
    for (const [path, body] of cases) {
      const res = await post(h, path, body);
      expect({ path, status: res.statusCode }).toEqual({ path, status: 400 });
      expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    }
  });
});
