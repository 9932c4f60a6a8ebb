/**
 * Trading and the creator's life cycle through the API, with real signed transactions on the
 * embedded ledger: quote == execution, the trade refusals (minimum, unknown market, wrong or
 * foreign ticker, Pool sell, malformed wallets), resolve refusals (too early, stranger, no
 * opposition), the 409 on a resolved market and the idempotent variants.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Keypair } from '@solana/web3.js';
import {
  buy,
  createMarket,
  fundedWallet,
  get,
  openHarness,
  post,
  signAndSend,
  tokenBalance,
  USDC,
  write,
  type BHarness,
} from './family-b.harness.js';

let h: BHarness;
let creator: Keypair, alice: Keypair, bob: Keypair, stranger: Keypair;
let amm: number, lonely: number, pool: number;
let market: { yesMint: string; noMint: string };
const w = (k: Keypair) => k.publicKey.toBase58();

beforeAll(async () => {
  h = await openHarness();
  [creator, alice, bob, stranger] = await Promise.all([fundedWallet(h), fundedWallet(h), fundedWallet(h), fundedWallet(h)]);
  const resolutionTime = Math.floor(Date.now() / 1000) + 3600;
  amm = await createMarket(h, creator, { resolutionTime });
  lonely = await createMarket(h, creator, { resolutionTime, yesTicker: 'FLIP', noTicker: 'NOFLIP' });
  pool = await createMarket(h, creator, { resolutionTime, seedAmount: 0, yesTicker: 'HOT', noTicker: 'COLD' });
  market = (await get(h, `/v2/markets/${amm}`)).json().data;
});
afterAll(async () => h?.close());

describe('buy and sell', () => {
  it('the quote equals the executed buy exactly (tokens out, USDC in) and the ticker maps to its side', async () => {
    const quote = (await get(h, `/v2/markets/${amm}/quote?side=UP&amount=${10 * USDC}`)).json().data;
    expect(quote).toMatchObject({ side: 'YES', action: 'buy', inputAmount: 10 * USDC, marketId: amm });
    const usdcBefore = await tokenBalance(h, h.usdcMint, alice.publicKey);
    const data = await buy(h, amm, alice, 'up', 10 * USDC);
    expect(data.quote).toEqual(Object.fromEntries(Object.entries(quote).filter(([k]) => k !== 'effectiveAmount' && k !== 'marketId')));
    expect(await tokenBalance(h, market.yesMint, alice.publicKey)).toBe(BigInt(quote.outputAmount));
    expect(usdcBefore - (await tokenBalance(h, h.usdcMint, alice.publicKey))).toBe(BigInt(10 * USDC));
    await buy(h, amm, bob, 'DOWN', 5 * USDC);
    await buy(h, lonely, alice, 'FLIP', USDC);
    await buy(h, pool, alice, 'HOT', 2 * USDC);
    await buy(h, pool, bob, 'COLD', 3 * USDC);
  });

  it('a sell executes exactly at its quote', async () => {
    const quote = (await get(h, `/v2/markets/${amm}/quote?side=DOWN&amount=1000000&action=sell`)).json().data;
    const before = await tokenBalance(h, h.usdcMint, bob.publicKey);
    await write(h, `/v2/markets/${amm}/sell`, { wallet: w(bob), side: 'NO', amount: 1_000_000 }, bob);
    expect((await tokenBalance(h, h.usdcMint, bob.publicKey)) - before).toBe(BigInt(quote.outputAmount));
  });

  it('amount 99999 → 400; unknown market → 404; non-integer id → 400', async () => {
    const small = await post(h, `/v2/markets/${amm}/buy`, { wallet: w(alice), side: 'YES', amount: 99_999 });
    expect(small.statusCode).toBe(400);
    expect(small.json()).toMatchObject({ success: false, error: expect.stringMatching(/amount/) });
    const unknown = await post(h, '/v2/markets/424242/buy', { wallet: w(alice), side: 'YES', amount: USDC });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ success: false, error: 'Market not found: 424242' });
    expect((await get(h, '/v2/markets/424242/quote?side=YES&amount=1000000')).statusCode).toBe(404);
    expect((await get(h, '/v2/markets/424242')).statusCode).toBe(404);
    expect((await post(h, '/v2/markets/abc/buy', { wallet: w(alice), side: 'YES', amount: USDC })).statusCode).toBe(400);
  });

  it('a ticker of another market, or an unknown side → 400 naming the valid tickers', async () => {
    for (const side of ['FLIP', 'MAYBE']) {
      const res = await post(h, `/v2/markets/${amm}/buy`, { wallet: w(alice), side, amount: USDC });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, yesTicker: 'UP', noTicker: 'DOWN' });
    }
    expect((await get(h, `/v2/markets/${amm}/quote?side=HOT&amount=1000000`)).statusCode).toBe(400);
  });

  it('sell in Pool mode → 400', async () => {
    const res = await post(h, `/v2/markets/${pool}/sell`, { wallet: w(alice), side: 'HOT', amount: 1_000_000 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: expect.stringMatching(/Pool/) });
  });

  it.each(['xyz', 'O0O0O0O0O0O0O0O0O0O0O0O0O0O0O0O0', '1'.repeat(50)])('malformed wallet %j → 400 on writes and reads', async (wallet) => {
    expect((await post(h, `/v2/markets/${amm}/buy`, { wallet, side: 'YES', amount: USDC })).statusCode).toBe(400);
    expect((await post(h, '/v2/redeem-all', { wallet })).statusCode).toBe(400);
    const read = await get(h, `/v2/positions/${wallet}`);
    expect(read.statusCode).toBe(400);
    expect(read.json().success).toBe(false);
  });
});

describe('resolve', () => {
  it('before resolutionTime → 400 ResolutionTooEarly', async () => {
    const res = await post(h, `/v2/markets/${amm}/resolve`, { wallet: w(creator), winningSide: 'UP' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: expect.stringMatching(/^ResolutionTooEarly/) });
  });

  it('by a stranger → 403 with creator and caller', async () => {
    h.ledger.warpTime(3_700);
    const res = await post(h, `/v2/markets/${amm}/resolve`, { wallet: w(stranger), winningSide: 'UP' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      success: false,
      error: expect.stringMatching(/Unauthorized/),
      creator: w(creator),
      caller: w(stranger),
    });
  });

  it('with one side unheld → 400 NoOpposition', async () => {
    const res = await post(h, `/v2/markets/${lonely}/resolve`, { wallet: w(creator), winningSide: 'FLIP' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: expect.stringMatching(/^NoOpposition/) });
  });

  it('resolves; then a buy → 409 with marketStatus and winningSide; a repeat → alreadyResolved', async () => {
    await write(h, `/v2/markets/${amm}/resolve`, { wallet: w(creator), winningSide: 'UP' }, creator);
    const res = await post(h, `/v2/markets/${amm}/buy`, { wallet: w(alice), side: 'YES', amount: USDC });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ success: false, error: expect.any(String), marketStatus: 'resolved', winningSide: 'YES' });
    const again = await post(h, `/v2/markets/${amm}/resolve`, { wallet: w(creator), winningSide: 'UP' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ success: true, alreadyResolved: true, note: expect.any(String) });
  });
});

describe('redeem and fees', () => {
  it('the winner redeems 1 USDC per token; a repeat → alreadyRedeemed; the loser gets a skip', async () => {
    const tokens = await tokenBalance(h, market.yesMint, alice.publicKey);
    const before = await tokenBalance(h, h.usdcMint, alice.publicKey);
    await write(h, `/v2/markets/${amm}/redeem`, { wallet: w(alice), side: 'UP' }, alice);
    expect((await tokenBalance(h, h.usdcMint, alice.publicKey)) - before).toBe(tokens);
    const again = await post(h, `/v2/markets/${amm}/redeem`, { wallet: w(alice), side: 'YES' });
    expect(again.json()).toMatchObject({ success: true, alreadyRedeemed: true, note: expect.any(String) });
    const loser = await post(h, '/v2/redeem-all', { wallet: w(bob) });
    expect(loser.statusCode, loser.body).toBe(200);
    expect(loser.json().data).toMatchObject({
      transactions: [],
      skipped: expect.arrayContaining([
        { marketId: amm, reason: 'NO_is_losing_side' },
        { marketId: pool, reason: 'status_active' },
      ]),
    });
  });

  it('claim-fees by a stranger → 403; the creator claims; a repeat → noFees; claim-all-fees skips no_fees', async () => {
    const forbidden = await post(h, `/v2/markets/${amm}/claim-fees`, { wallet: w(stranger) });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toMatchObject({ success: false, creator: w(creator), caller: w(stranger) });
    const accrued = (await get(h, `/v2/markets/${amm}`)).json().data.creatorFeesAccrued as number;
    expect(accrued).toBeGreaterThan(0);
    const before = await tokenBalance(h, h.usdcMint, creator.publicKey);
    const data = await write(h, `/v2/markets/${amm}/claim-fees`, { wallet: w(creator) }, creator);
    expect(data.feesAccrued).toBe(accrued);
    expect((await tokenBalance(h, h.usdcMint, creator.publicKey)) - before).toBe(BigInt(accrued));
    const again = await post(h, `/v2/markets/${amm}/claim-fees`, { wallet: w(creator) });
    expect(again.json()).toMatchObject({ success: true, noFees: true, note: expect.any(String) });
    expect(again.json().data).toBeUndefined();
    const all = (await post(h, '/v2/claim-all-fees', { wallet: w(creator) })).json().data;
    expect(all.skipped).toContainEqual({ marketId: amm, reason: 'no_fees' });
    expect(all.transactions.map((t: { marketId: number }) => t.marketId).sort()).toEqual([lonely, pool].sort());
    for (const t of all.transactions) await signAndSend(h, t.transaction, creator);
    expect((await post(h, '/v2/claim-all-fees', { wallet: w(creator) })).json().data.transactions).toEqual([]);
  });
});
