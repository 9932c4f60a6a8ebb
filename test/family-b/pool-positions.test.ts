/**
 * Pool mode and positions through the API on the real ledger: pro-rata redemption among several
 * winners (the last one empties the pot), the positions views before and after resolution, and
 * the creator-only/idempotent edges of init-mints and confirm, plus a market whose mints were
 * never initialised (broken: trades refused, flagged in the views).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Keypair } from '@solana/web3.js';
import {
  buy,
  confirmProof,
  createBody,
  createMarket,
  fundedWallet,
  get,
  openHarness,
  post,
  tokenBalance,
  USDC,
  waitFor,
  write,
  type BHarness,
} from './family-b.harness.js';

let h: BHarness;
let creator: Keypair, alice: Keypair, carol: Keypair, bob: Keypair, stranger: Keypair;
let pool: number, broken: number;
let yesMint: string;
const w = (k: Keypair) => k.publicKey.toBase58();
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const market = async (id: number): Promise<Json> => (await get(h, `/v2/markets/${id}`)).json().data;

beforeAll(async () => {
  h = await openHarness();
  [creator, alice, carol, bob, stranger] = await Promise.all([
    fundedWallet(h),
    fundedWallet(h),
    fundedWallet(h),
    fundedWallet(h),
    fundedWallet(h),
  ]);
  pool = await createMarket(h, creator, { seedAmount: 0, yesTicker: 'RAIN', noTicker: 'SUN' });
  broken = (await write(h, '/v2/markets/create', createBody(creator), creator)).marketId as number;
  yesMint = (await market(pool)).yesMint;
  await buy(h, pool, alice, 'RAIN', 3 * USDC);
  await buy(h, pool, carol, 'RAIN', 5 * USDC);
  await buy(h, pool, bob, 'SUN', 4 * USDC);
});
afterAll(async () => h?.close());

describe('creator-only and idempotent edges', () => {
  it('init-mints: a stranger → 403; the creator again → alreadyInitialized', async () => {
    const res = await post(h, `/v2/markets/${pool}/init-mints`, { wallet: w(stranger) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, creator: w(creator), caller: w(stranger) });
    expect((await post(h, `/v2/markets/${pool}/init-mints`, { wallet: w(creator) })).json()).toMatchObject({
      success: true,
      alreadyInitialized: true,
    });
  });

  it("confirm naming the creator's address without the creator's signature → 403 and publishes nothing; with it → a slug, repeatable", async () => {
    // The creator's address is public: a stranger sends it, signing with their own key.
    const forged = await post(h, '/v2/markets/confirm', {
      marketId: pool,
      wallet: w(creator),
      ...confirmProof(stranger, pool),
      title: 'Hijack',
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({ success: false, code: 'INVALID_SIGNATURE' });
    // A proof of another market, an old proof, and the stranger's own proof are refused too.
    const otherMarket = await post(h, '/v2/markets/confirm', {
      marketId: pool,
      wallet: w(creator),
      ...confirmProof(creator, broken),
      title: 'Hijack',
    });
    expect(otherMarket.json()).toMatchObject({ code: 'INVALID_SIGNATURE' });
    const stale = await post(h, '/v2/markets/confirm', {
      marketId: pool,
      wallet: w(creator),
      ...confirmProof(creator, pool, Math.floor(Date.now() / 1000) - 120),
      title: 'Hijack',
    });
    expect([stale.statusCode, stale.json().code]).toEqual([403, 'SIGNATURE_EXPIRED']);
    const stranger403 = await post(h, '/v2/markets/confirm', {
      marketId: pool,
      wallet: w(stranger),
      ...confirmProof(stranger, pool),
      title: 'Hijack',
    });
    expect(stranger403.statusCode).toBe(403);
    expect((await get(h, '/v2/markets/search?q=Hijack')).json().data.markets).toEqual([]); // nothing published
    const first = (
      await post(h, '/v2/markets/confirm', { marketId: pool, wallet: w(creator), ...confirmProof(creator, pool), category: 'weather' })
    ).json().data;
    const again = (
      await post(h, '/v2/markets/confirm', { marketId: pool, wallet: w(creator), ...confirmProof(creator, pool), tags: ['rain'] })
    ).json().data;
    expect(again).toMatchObject({ marketId: pool, slug: first.slug, id: first.id });
    expect(first.title).not.toBe('Hijack');
  });

  it('a market without initialised mints is broken: buys refused with isBroken, views flag it', async () => {
    const res = await post(h, `/v2/markets/${broken}/buy`, { wallet: w(alice), side: 'UP', amount: USDC });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, isBroken: true });
    expect(await market(broken)).toMatchObject({ mintsInitialized: false, isBroken: true });
  });
});

describe('positions', () => {
  it('lists only markets where the wallet holds tokens; the single view adds market detail; 404 for an unknown market', async () => {
    const list = await waitFor('alice position', async () => {
      const data = (await get(h, `/v2/positions/${w(alice)}`)).json().data as Json[];
      return data.length === 1 ? data : undefined;
    });
    const tokens = Number(await tokenBalance(h, yesMint, alice.publicKey));
    expect(list[0]).toMatchObject({
      marketId: pool,
      marketStatus: 'active',
      yesBalance: tokens,
      noBalance: 0,
      yesBalanceHuman: tokens / USDC,
      winningSide: null,
      isResolved: false,
      isBroken: false,
      needsRedemption: false,
      redeemableValueUsdc: 0,
    });
    const one = (await get(h, `/v2/positions/${w(alice)}/${pool}`)).json().data;
    expect(one).toMatchObject({
      marketId: pool,
      marketType: 'pool',
      yesTicker: 'RAIN',
      noTicker: 'SUN',
      creator: w(creator),
      imageUrls: { market: null, yes: null, no: null },
    });
    expect((await get(h, `/v2/positions/${w(stranger)}`)).json()).toEqual({ success: true, data: [] });
    const missing = await get(h, `/v2/positions/${w(alice)}/999999`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().success).toBe(false);
  });
});

describe('Pool resolution and pro-rata redemption', () => {
  it('winners split the whole pot pro rata (floor); the last redeemer takes the rest; positions follow', async () => {
    h.ledger.warpTime(3_700);
    await write(h, `/v2/markets/${pool}/resolve`, { wallet: w(creator), winningSide: 'RAIN' }, creator);
    const m = await waitFor('resolved in the index', async () => {
      const v = await market(pool);
      return v.status === 'resolved' ? v : undefined;
    });
    const [a, c] = [await tokenBalance(h, yesMint, alice.publicKey), await tokenBalance(h, yesMint, carol.publicKey)];
    const pot = BigInt(m.collateral);
    expect(BigInt(m.yesSupply)).toBe(a + c);
    expect(pot).toBe(BigInt(3 + 5 + 4) * BigInt(USDC) - (BigInt(3 + 5 + 4) * BigInt(USDC) * 200n) / 10_000n); // all in, minus the 2% trade fee

    const position = await waitFor('alice needs redemption', async () => {
      const p = ((await get(h, `/v2/positions/${w(alice)}`)).json().data as Json[])[0];
      return p?.needsRedemption ? p : undefined;
    });
    const aliceShare = (pot * a) / (a + c);
    expect(position).toMatchObject({
      isResolved: true,
      winningSide: 'YES',
      hasWinningTokens: true,
      redeemableValueUsdc: Number(aliceShare) / USDC,
    });

    const usdc = async (k: Keypair) => tokenBalance(h, h.usdcMint, k.publicKey);
    let before = await usdc(alice);
    await write(h, `/v2/markets/${pool}/redeem`, { wallet: w(alice), side: 'RAIN' }, alice);
    expect((await usdc(alice)) - before).toBe(aliceShare);
    before = await usdc(carol);
    const all = (await post(h, '/v2/redeem-all', { wallet: w(carol) })).json().data;
    expect(all.transactions).toHaveLength(1);
    await write(h, `/v2/markets/${pool}/redeem`, { wallet: w(carol), side: 'YES' }, carol);
    expect((await usdc(carol)) - before).toBe(pot - aliceShare);

    const bobRedeem = await post(h, `/v2/markets/${pool}/redeem`, { wallet: w(bob), side: 'SUN' });
    expect(bobRedeem.statusCode).toBe(400);
    expect(bobRedeem.json()).toMatchObject({ success: false, code: 'NO_is_losing_side' });
    const after = await waitFor('pot empty in the index', async () => {
      const v = await market(pool);
      return v.collateral === 0 ? v : undefined;
    });
    expect(after.yesSupply).toBe(0);
  });
});
