/**
 * Pool mode and cancellation, with every number worked out by hand from @pmx/programs' docs/programs.md
 * ("Pool mode", "Resolution and redemption", "Cancellation") and written down: nothing below
 * calls the domain math. Real signed transactions on the embedded ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Keypair } from '@solana/web3.js';
import {
  findMarketPda,
  getCancelMarketInstruction,
  getClaimFeesInstruction,
  getRedeemInstruction,
  getResolveInstruction,
  type OutcomeSide,
} from '@pmx/programs';
import { MarketHarness } from './harness.js';

let h: MarketHarness;
let creator: Keypair, alice: Keypair, bob: Keypair, carol: Keypair, dan: Keypair;

beforeAll(async () => {
  h = await MarketHarness.open();
  [creator, alice, bob, carol, dan] = await Promise.all([h.wallet(), h.wallet(), h.wallet(), h.wallet(), h.wallet()]);
});
afterAll(async () => h?.close());

const vault = (id: bigint) => h.usdc(findMarketPda(id)[0]);
/** Runs `act` and returns how much USDC `who` gained (negative: paid). */
async function gain(who: Keypair, act: () => Promise<unknown>): Promise<bigint> {
  const before = h.usdc(who.publicKey);
  await act();
  return h.usdc(who.publicKey) - before;
}

describe('Pool worked example (seed 0, 200 bps): price 0.5, the winners split the pot', () => {
  let id: bigint;
  const buy = (who: Keypair, side: OutcomeSide, amount: bigint) =>
    gain(who, () => h.sendOk(h.buyIxs(id, who.publicKey, side, amount), [who]));
  const redeem = (who: Keypair, side: OutcomeSide) =>
    gain(who, () => h.sendOk([getRedeemInstruction({ marketId: id, side, owner: who.publicKey, usdcMint: h.usdcMint })], [who]));

  it('mints 2 tokens per net USDC; the pot grows by net + liquidity fee', async () => {
    id = await h.createMarket(creator, { seed: 0n, tradeFeeBps: 200 });
    // Alice, YES, 100 000 000: fee 2 000 000, lp 1 500 000, net 96 500 000 → 193 000 000 YES; pot + 98 000 000
    expect(await buy(alice, 'YES', 100_000_000n)).toBe(-100_000_000n);
    expect(h.tokens(alice.publicKey, id, 'YES')).toBe(193_000_000n);
    // Bob, YES, 33 333 333: fee ceil(666 666.66) = 666 667, lp ceil(499 999.995) = 500 000,
    // net 32 166 666 → 64 333 332 YES; pot + 32 666 666; creator 333 333, protocol 333 334 (the odd unit)
    await buy(bob, 'YES', 33_333_333n);
    expect(h.tokens(bob.publicKey, id, 'YES')).toBe(64_333_332n);
    // Dan, YES, 7 777 777: fee ceil(155 555.54) = 155 556, lp ceil(116 666.655) = 116 667,
    // net 7 505 554 → 15 011 108 YES; pot + 7 622 221; creator 77 778, protocol 77 778
    await buy(dan, 'YES', 7_777_777n);
    expect(h.tokens(dan.publicKey, id, 'YES')).toBe(15_011_108n);
    // Carol, NO, 30 000 000: fee 600 000, lp 450 000, net 28 950 000 → 57 900 000 NO; pot + 29 400 000
    await buy(carol, 'NO', 30_000_000n);
    expect(h.tokens(carol.publicKey, id, 'NO')).toBe(57_900_000n);

    expect(h.market(id)).toMatchObject({
      mode: 'pool',
      yesReserve: 0n,
      noReserve: 0n,
      yesSupply: 272_344_440n, // 193 000 000 + 64 333 332 + 15 011 108
      noSupply: 57_900_000n,
      collateral: 167_688_887n, // 98 000 000 + 32 666 666 + 7 622 221 + 29 400 000
      creatorFeesAccrued: 1_711_111n, // 1 000 000 + 333 333 + 77 778 + 300 000
      protocolFeesAccrued: 1_711_112n, // 1 000 000 + 333 334 + 77 778 + 300 000
    });
    expect(vault(id)).toBe(171_111_110n); // everything paid in: 100 000 000 + 33 333 333 + 7 777 777 + 30 000 000
  });

  it('pays each winner floor(pot × tokens / winning supply) of what remains; the last takes the rest', async () => {
    h.ledger.warpTime(3601);
    await h.sendOk(
      [getResolveInstruction({ marketId: id, creator: creator.publicKey, usdcMint: h.usdcMint, winningSide: 'YES' })],
      [creator],
    );
    expect(vault(id)).toBe(171_111_110n); // Pool mode pays nothing at resolution
    // Alice: floor(167 688 887 × 193 000 000 / 272 344 440) = floor(118 834 646.27) = 118 834 646
    expect(await redeem(alice, 'YES')).toBe(118_834_646n);
    // Bob: pot 48 854 241, supply 79 344 440 → floor(48 854 241 × 64 333 332 / 79 344 440) = floor(39 611 548.15) = 39 611 548
    expect(await redeem(bob, 'YES')).toBe(39_611_548n);
    // Carol's losing tokens burn for nothing.
    expect(await redeem(carol, 'NO')).toBe(0n);
    expect(h.tokens(carol.publicKey, id, 'NO')).toBe(0n);
    // Dan, last: pot 9 242 693 for his 15 011 108 of 15 011 108 → 9 242 693, the two floors' dust included
    // (pro rata of the full pot he would get 9 242 692.79).
    expect(await redeem(dan, 'YES')).toBe(9_242_693n);
    expect(h.market(id)).toMatchObject({ collateral: 0n, yesSupply: 0n, noSupply: 0n });
    expect(vault(id)).toBe(3_422_223n); // only the fees remain: 1 711 111 + 1 711 112
    expect(
      await gain(creator, () =>
        h.sendOk([getClaimFeesInstruction({ marketId: id, creator: creator.publicKey, usdcMint: h.usdcMint })], [creator]),
      ),
    ).toBe(1_711_111n);
  });
});

describe('cancellation worked example (AMM seed 10 USDC, 100 bps, one-sided after its time)', () => {
  it('refunds the creator’s reserves pro rata and pays the holders 0.5 USDC per token', async () => {
    const id = await h.createMarket(creator, { seed: 10_000_000n, tradeFeeBps: 100 });
    // Alice, YES, 1 000 000: fee ceil(10 000) = 10 000 (5 000 + 5 000), lp 15 000, net 975 000
    // k = 1e14; NO' = 10 975 000; YES kept = ceil(1e14 / 10 975 000) = ceil(9 111 617.31) = 9 111 618
    // out = 10 000 000 + 975 000 − 9 111 618 = 1 863 382; reserves + 15 000: YES 9 126 618, NO 10 990 000
    // collateral 10 000 000 + 990 000 = 10 990 000
    await h.sendOk(h.buyIxs(id, alice.publicKey, 'YES', 1_000_000n, 1_863_382n), [alice]);
    expect(h.market(id)).toMatchObject({ yesReserve: 9_126_618n, noReserve: 10_990_000n, yesSupply: 1_863_382n, collateral: 10_990_000n });

    const cancel = getCancelMarketInstruction({ marketId: id, creator: creator.publicKey, usdcMint: h.usdcMint });
    expect(await h.sendErr([cancel], [creator])).toBe('CannotCancel'); // before its time it can still resolve
    h.ledger.warpTime(3601);
    // reserves 9 126 618 + 10 990 000 = 20 116 618 tokens; all tokens 20 116 618 + 1 863 382 = 21 980 000
    // creator: floor(10 990 000 × 20 116 618 / 21 980 000) = 10 058 309 (exactly half the reserves: one
    // YES + one NO is one USDC, so every token is worth 0.5)
    expect(await gain(creator, () => h.sendOk([cancel], [creator]))).toBe(10_058_309n);
    expect(h.market(id)).toMatchObject({ status: 'cancelled', yesReserve: 0n, noReserve: 0n, collateral: 931_691n });
    // Alice, the only holder: floor(931 691 × 1 863 382 / 1 863 382) = 931 691, i.e. 0.5 per token
    const redeem = getRedeemInstruction({ marketId: id, side: 'YES', owner: alice.publicKey, usdcMint: h.usdcMint });
    expect(await gain(alice, () => h.sendOk([redeem], [alice]))).toBe(931_691n);
    // Fees stay claimable after cancellation: only they remain in the vault.
    expect(vault(id)).toBe(10_000n);
    expect(
      await gain(creator, () =>
        h.sendOk([getClaimFeesInstruction({ marketId: id, creator: creator.publicKey, usdcMint: h.usdcMint })], [creator]),
      ),
    ).toBe(5_000n);
  });
});
