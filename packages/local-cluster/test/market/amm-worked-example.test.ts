/**
 * An AMM market's life, with every number worked out by hand from @pmx/programs' docs/programs.md ("Math") and
 * written down here: nothing below calls the domain math, so a wrong formula in the program (a
 * rounding direction, a fee split, the curve) fails these tests even though the quote and the
 * program would still agree with each other. Real signed transactions on the embedded ledger.
 *
 * Market: seed 1 000 USDC (both reserves 1 000 000 000 raw), trade fee 200 bps, liquidity fee
 * 150 bps. Steps 1–2 are the examples printed in @pmx/programs' docs/programs.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Keypair, PublicKey } from '@solana/web3.js';
import {
  findMarketPda,
  getClaimFeesInstruction,
  getClaimProtocolFeesInstruction,
  getRedeemInstruction,
  getResolveInstruction,
  getSellInstruction,
  type MarketAccount,
  type OutcomeSide,
} from '@pmx/programs';
import { MarketHarness, USDC } from './harness.js';

let h: MarketHarness;
let creator: Keypair, alice: Keypair, bob: Keypair, carol: Keypair, keeper: Keypair;
let id: bigint;
const START = 10_000n * USDC; // every wallet's USDC

beforeAll(async () => {
  h = await MarketHarness.open();
  [creator, alice, bob, carol, keeper] = await Promise.all([h.wallet(), h.wallet(), h.wallet(), h.wallet(), h.wallet()]);
  id = await h.createMarket(creator, { seed: 1_000n * USDC, tradeFeeBps: 200 });
});
afterAll(async () => h?.close());

const vault = () => h.usdc(findMarketPda(id)[0]);
const numbers = (m: MarketAccount) => ({
  yesReserve: m.yesReserve,
  noReserve: m.noReserve,
  yesSupply: m.yesSupply,
  noSupply: m.noSupply,
  collateral: m.collateral,
  creatorFeesAccrued: m.creatorFeesAccrued,
  protocolFeesAccrued: m.protocolFeesAccrued,
  totalVolume: m.totalVolume,
});
const buy = (who: Keypair, side: OutcomeSide, amount: bigint, minOut: bigint) =>
  h.sendOk(h.buyIxs(id, who.publicKey, side, amount, minOut), [who]);
const redeem = (who: Keypair, side: OutcomeSide) =>
  h.sendOk([getRedeemInstruction({ marketId: id, side, owner: who.publicKey, usdcMint: h.usdcMint })], [who]);
const usdcDelta = (who: PublicKey) => h.usdc(who) - START;

describe('AMM worked example (seed 1 000 USDC, 200 bps)', () => {
  it('opens with 1 000 USDC of complete sets in both reserves', () => {
    expect(numbers(h.market(id))).toEqual({
      yesReserve: 1_000_000_000n,
      noReserve: 1_000_000_000n,
      yesSupply: 0n,
      noSupply: 0n,
      collateral: 1_000_000_000n,
      creatorFeesAccrued: 0n,
      protocolFeesAccrued: 0n,
      totalVolume: 0n,
    });
    expect(vault()).toBe(1_000_000_000n);
    expect(usdcDelta(creator.publicKey)).toBe(-1_000_000_000n);
  });

  it('1. Alice buys YES with 100 USDC and receives 184 507 295 YES', async () => {
    // tradeFee     = ceil(100 000 000 × 200 / 10 000) = 2 000 000 (creator 1 000 000, protocol 1 000 000)
    // liquidityFee = ceil(100 000 000 × 150 / 10 000) = 1 500 000
    // net x        = 100 000 000 − 2 000 000 − 1 500 000 = 96 500 000
    // k = 1e9 × 1e9 = 1e18; NO' = 1 000 000 000 + 96 500 000 = 1 096 500 000
    // YES kept = ceil(1e18 / 1 096 500 000) = ceil(911 992 704.06) = 911 992 705
    // out = 1 000 000 000 + 96 500 000 − 911 992 705 = 184 507 295
    // then the liquidity fee joins both reserves: YES 913 492 705, NO 1 098 000 000
    // collateral = 1e9 + 96 500 000 + 1 500 000 = 1 098 000 000 (= YES reserve + YES supply)
    // min_out is the user's limit: one raw token more than the curve gives is refused.
    expect(await h.sendErr(h.buyIxs(id, alice.publicKey, 'YES', 100_000_000n, 184_507_296n), [alice])).toBe('SlippageExceeded');
    await buy(alice, 'YES', 100_000_000n, 184_507_295n);
    expect(h.tokens(alice.publicKey, id, 'YES')).toBe(184_507_295n);
    expect(usdcDelta(alice.publicKey)).toBe(-100_000_000n);
    expect(numbers(h.market(id))).toEqual({
      yesReserve: 913_492_705n,
      noReserve: 1_098_000_000n,
      yesSupply: 184_507_295n,
      noSupply: 0n,
      collateral: 1_098_000_000n,
      creatorFeesAccrued: 1_000_000n,
      protocolFeesAccrued: 1_000_000n,
      totalVolume: 100_000_000n,
    });
    expect(vault()).toBe(1_100_000_000n); // collateral 1 098 000 000 + fees 2 000 000
  });

  it('2. Alice sells the 184 507 295 YES back at once and receives 93 116 361 USDC', async () => {
    // a = 913 492 705 + 184 507 295 = 1 098 000 000, b = 1 098 000 000, k = 913 492 705 × 1 098 000 000
    //   = 1 003 014 990 090 000 000; (a − b)² + 4k = 4 012 059 960 360 000 000, ceil √ = 2 003 012 721
    // r = floor((2 196 000 000 − 2 003 012 721) / 2) = floor(96 493 639.5) = 96 493 639 gross
    // tradeFee = ceil(96 493 639 × 0.02) = ceil(1 929 872.78) = 1 929 873 (creator 964 936, protocol 964 937)
    // liquidityFee = ceil(96 493 639 × 0.015) = ceil(1 447 404.585) = 1 447 405
    // Alice receives 96 493 639 − 1 929 873 − 1 447 405 = 93 116 361
    // reserves: 1 098 000 000 − 96 493 639 + 1 447 405 = 1 002 953 766 on both sides
    // collateral: 1 098 000 000 − 96 493 639 + 1 447 405 = 1 002 953 766
    const sell = (minOut: bigint) =>
      getSellInstruction({ marketId: id, side: 'YES', owner: alice.publicKey, usdcMint: h.usdcMint, amount: 184_507_295n, minOut });
    expect(await h.sendErr([sell(93_116_362n)], [alice])).toBe('SlippageExceeded');
    await h.sendOk([sell(93_116_361n)], [alice]);
    expect(h.tokens(alice.publicKey, id, 'YES')).toBe(0n);
    expect(usdcDelta(alice.publicKey)).toBe(-100_000_000n + 93_116_361n); // the round trip cost her 6 883 639
    expect(numbers(h.market(id))).toEqual({
      yesReserve: 1_002_953_766n,
      noReserve: 1_002_953_766n,
      yesSupply: 0n,
      noSupply: 0n,
      collateral: 1_002_953_766n,
      creatorFeesAccrued: 1_964_936n,
      protocolFeesAccrued: 1_964_937n,
      totalVolume: 196_493_639n, // 100 000 000 in + 96 493 639 gross out
    });
    expect(vault()).toBe(1_006_883_639n); // 1 100 000 000 − 93 116 361
  });

  it('3. Bob buys NO with 50 USDC and receives 94 285 336 NO', async () => {
    // tradeFee 1 000 000, liquidityFee 750 000, net 48 250 000
    // k = 1 002 953 766² = 1 005 916 256 733 582 756; YES' = 1 002 953 766 + 48 250 000 = 1 051 203 766
    // NO kept = ceil(k / 1 051 203 766) = 956 918 430; out = 1 002 953 766 + 48 250 000 − 956 918 430 = 94 285 336
    // + 750 000 each: YES 1 051 953 766, NO 957 668 430; collateral 1 002 953 766 + 49 000 000 = 1 051 953 766
    await buy(bob, 'NO', 50_000_000n, 94_285_336n);
    expect(h.tokens(bob.publicKey, id, 'NO')).toBe(94_285_336n);
    expect(numbers(h.market(id))).toEqual({
      yesReserve: 1_051_953_766n,
      noReserve: 957_668_430n,
      yesSupply: 0n,
      noSupply: 94_285_336n,
      collateral: 1_051_953_766n,
      creatorFeesAccrued: 2_464_936n,
      protocolFeesAccrued: 2_464_937n,
      totalVolume: 246_493_639n,
    });
  });

  it('4. Carol buys YES with 20 USDC and receives 40 081 334 YES', async () => {
    // tradeFee 400 000, liquidityFee 300 000, net 19 300 000
    // k = 1 051 953 766 × 957 668 430 = 1 007 422 911 517 807 380; NO' = 957 668 430 + 19 300 000 = 976 968 430
    // YES kept = ceil(k / 976 968 430) = 1 031 172 432; out = 1 051 953 766 + 19 300 000 − 1 031 172 432 = 40 081 334
    // + 300 000 each: YES 1 031 472 432, NO 977 268 430; collateral 1 051 953 766 + 19 600 000 = 1 071 553 766
    // complete sets hold: 1 031 472 432 + 40 081 334 = 977 268 430 + 94 285 336 = 1 071 553 766
    await buy(carol, 'YES', 20_000_000n, 40_081_334n);
    expect(h.tokens(carol.publicKey, id, 'YES')).toBe(40_081_334n);
    expect(numbers(h.market(id))).toEqual({
      yesReserve: 1_031_472_432n,
      noReserve: 977_268_430n,
      yesSupply: 40_081_334n,
      noSupply: 94_285_336n,
      collateral: 1_071_553_766n,
      creatorFeesAccrued: 2_664_936n,
      protocolFeesAccrued: 2_664_937n,
      totalVolume: 266_493_639n,
    });
    expect(vault()).toBe(1_076_883_639n); // 1 006 883 639 + 50 000 000 + 20 000 000
  });

  it('5. resolves YES: the creator takes the surplus 1 031 472 432 (the YES reserve)', async () => {
    // winners are owed their supply 40 081 334; surplus = 1 071 553 766 − 40 081 334 = 1 031 472 432
    h.ledger.warpTime(3601);
    await h.sendOk(
      [getResolveInstruction({ marketId: id, creator: creator.publicKey, usdcMint: h.usdcMint, winningSide: 'YES' })],
      [creator],
    );
    expect(usdcDelta(creator.publicKey)).toBe(-1_000_000_000n + 1_031_472_432n);
    expect(h.market(id)).toMatchObject({ status: 'resolved', winningSide: 'YES', collateral: 40_081_334n });
    expect(vault()).toBe(45_411_207n); // Carol's 40 081 334 + unclaimed fees 2 664 936 + 2 664 937
  });

  it('6. redeems YES 1:1 and NO for nothing; fees are claimed; the vault ends at 0', async () => {
    await redeem(carol, 'YES');
    expect(usdcDelta(carol.publicKey)).toBe(-20_000_000n + 40_081_334n);
    await redeem(bob, 'NO');
    expect(usdcDelta(bob.publicKey)).toBe(-50_000_000n);
    expect(h.tokens(bob.publicKey, id, 'NO')).toBe(0n);
    expect(vault()).toBe(5_329_873n);

    await h.sendOk([getClaimFeesInstruction({ marketId: id, creator: creator.publicKey, usdcMint: h.usdcMint })], [creator]);
    expect(usdcDelta(creator.publicKey)).toBe(31_472_432n + 2_664_936n); // surplus − seed + creator fees
    const protocolBefore = h.usdc(h.protocolFeeWallet);
    await h.sendOk(
      [
        getClaimProtocolFeesInstruction({
          marketId: id,
          caller: keeper.publicKey,
          usdcMint: h.usdcMint,
          protocolFeeWallet: h.protocolFeeWallet,
        }),
      ],
      [keeper],
    );
    expect(h.usdc(h.protocolFeeWallet) - protocolBefore).toBe(2_664_937n);
    expect(vault()).toBe(0n);
    // Nothing was created or lost: the four traders' and the creator's deltas plus the protocol's sum to 0.
    const deltas = [creator, alice, bob, carol].map((k) => usdcDelta(k.publicKey));
    expect(deltas.reduce((a, b) => a + b, 0n) + 2_664_937n).toBe(0n);
  });
});
