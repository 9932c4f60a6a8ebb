/**
 * The AMM life cycle through the real embedded ledger: create + init_mints, buys on both sides,
 * a sell, quote == execution, resolve (with its refusals), redeem 1:1, fee claims, and USDC
 * conservation across every wallet and the vault.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Keypair } from '@solana/web3.js';
import {
  findMarketPda,
  getClaimFeesInstruction,
  MARKET_ACCOUNT_SIZE,
  getClaimProtocolFeesInstruction,
  getRedeemInstruction,
  getResolveInstruction,
  getSellInstruction,
  quoteBuy,
  quoteSell,
  toMarketState,
  vaultLiabilities,
} from '@pmx/programs';
import { MarketHarness, USDC } from './harness.js';

let h: MarketHarness;
let creator: Keypair, alice: Keypair, bob: Keypair;
let id: bigint;
const SEED = 1_000n * USDC;

beforeAll(async () => {
  h = await MarketHarness.open();
  [creator, alice, bob] = await Promise.all([h.wallet(), h.wallet(), h.wallet()]);
});
afterAll(async () => h?.close());

const vaultOf = (marketId: bigint) => findMarketPda(marketId)[0];
const everyone = () => [creator.publicKey, alice.publicKey, bob.publicKey, h.protocolFeeWallet, vaultOf(id)];

describe('AMM market on the embedded ledger', () => {
  let totalBefore: bigint;

  it('creates the market, seeds the vault and initialises the mints', async () => {
    totalBefore = h.totalUsdc([creator.publicKey, alice.publicKey, bob.publicKey, h.protocolFeeWallet]);
    id = await h.createMarket(creator, { seed: SEED });
    const m = h.market(id);
    expect(m).toMatchObject({ marketId: id, mode: 'amm', status: 'active', mintsInitialized: true, yesTicker: 'UP' });
    expect(m.creator.equals(creator.publicKey)).toBe(true);
    expect(m.yesReserve).toBe(SEED);
    expect(h.usdc(vaultOf(id))).toBe(SEED);
    expect(h.marketCounter()).toBe(id);
    expect(h.totalUsdc(everyone())).toBe(totalBefore);
    // The program pays the Rent sysvar's minimum, the one getMinimumBalanceForRentExemption answers.
    expect(h.ledger.getAccount(vaultOf(id))!.lamports).toBe(h.ledger.minimumBalanceForRentExemption(MARKET_ACCOUNT_SIZE));
  });

  it('executes a buy exactly as quoted, on both sides', async () => {
    const quote = quoteBuy(toMarketState(h.market(id)), 'YES', 100n * USDC);
    await h.sendOk(h.buyIxs(id, alice.publicKey, 'YES', 100n * USDC, quote.outputAmount), [alice]);
    expect(h.tokens(alice.publicKey, id, 'YES')).toBe(quote.outputAmount);
    expect(toMarketState(h.market(id))).toEqual(quote.next);

    const q2 = quoteBuy(toMarketState(h.market(id)), 'NO', 40n * USDC);
    await h.sendOk(h.buyIxs(id, bob.publicKey, 'NO', 40n * USDC, q2.outputAmount), [bob]);
    expect(h.tokens(bob.publicKey, id, 'NO')).toBe(q2.outputAmount);
    expect(h.usdc(vaultOf(id))).toBe(vaultLiabilities(toMarketState(h.market(id))));
  });

  it('refuses a buy whose limit the price has moved past, moving no token', async () => {
    const before = h.usdc(alice.publicKey);
    const quote = quoteBuy(toMarketState(h.market(id)), 'YES', 10n * USDC);
    expect(await h.sendErr(h.buyIxs(id, alice.publicKey, 'YES', 10n * USDC, quote.outputAmount + 1n), [alice])).toBe('SlippageExceeded');
    expect(h.usdc(alice.publicKey)).toBe(before);
  });

  it('sells part of a position exactly as quoted, never below its limit', async () => {
    const tokens = h.tokens(alice.publicKey, id, 'YES') / 4n;
    const quote = quoteSell(toMarketState(h.market(id)), 'YES', tokens);
    const before = h.usdc(alice.publicKey);
    const sell = (minOut: bigint) =>
      getSellInstruction({ marketId: id, side: 'YES', owner: alice.publicKey, usdcMint: h.usdcMint, amount: tokens, minOut });
    expect(await h.sendErr([sell(quote.outputAmount + 1n)], [alice])).toBe('SlippageExceeded');
    expect(h.usdc(alice.publicKey)).toBe(before);
    await h.sendOk([sell(quote.outputAmount)], [alice]);
    expect(h.usdc(alice.publicKey) - before).toBe(quote.outputAmount);
    expect(toMarketState(h.market(id))).toEqual(quote.next);
    expect(h.totalUsdc(everyone())).toBe(totalBefore);
  });

  it('refuses resolution before its time and by a stranger', async () => {
    const resolve = (by: Keypair) =>
      getResolveInstruction({ marketId: id, creator: by.publicKey, usdcMint: h.usdcMint, winningSide: 'YES' });
    expect(await h.sendErr([resolve(creator)], [creator])).toBe('ResolutionTooEarly');
    h.ledger.warpTime(3601);
    expect(await h.sendErr([resolve(bob)], [bob])).toBe('Unauthorized');
  });

  it('resolves YES: the creator takes the surplus above the winning supply and unclaimed fees', async () => {
    const m = h.market(id);
    const before = h.usdc(creator.publicKey);
    await h.sendOk(
      [getResolveInstruction({ marketId: id, creator: creator.publicKey, usdcMint: h.usdcMint, winningSide: 'YES' })],
      [creator],
    );
    expect(h.usdc(creator.publicKey) - before).toBe(m.collateral - m.yesSupply);
    const after = h.market(id);
    expect(after).toMatchObject({ status: 'resolved', winningSide: 'YES' });
    expect(h.usdc(vaultOf(id))).toBe(vaultLiabilities(toMarketState(after)));
  });

  it('redeems winners 1:1 and losers for nothing, then claims fees; the vault ends empty', async () => {
    const yes = h.tokens(alice.publicKey, id, 'YES');
    const aliceBefore = h.usdc(alice.publicKey);
    const redeem = (who: Keypair, side: 'YES' | 'NO') =>
      getRedeemInstruction({ marketId: id, side, owner: who.publicKey, usdcMint: h.usdcMint });
    await h.sendOk([redeem(alice, 'YES')], [alice]);
    expect(h.usdc(alice.publicKey) - aliceBefore).toBe(yes);
    expect(h.tokens(alice.publicKey, id, 'YES')).toBe(0n);
    expect(await h.sendErr([redeem(alice, 'YES')], [alice])).toBe('NothingToRedeem');

    const bobBefore = h.usdc(bob.publicKey);
    await h.sendOk([redeem(bob, 'NO')], [bob]);
    expect(h.usdc(bob.publicKey)).toBe(bobBefore);

    const fees = h.market(id).creatorFeesAccrued;
    const creatorBefore = h.usdc(creator.publicKey);
    await h.sendOk([getClaimFeesInstruction({ marketId: id, creator: creator.publicKey, usdcMint: h.usdcMint })], [creator]);
    expect(h.usdc(creator.publicKey) - creatorBefore).toBe(fees);
    expect(await h.sendErr([getClaimFeesInstruction({ marketId: id, creator: creator.publicKey, usdcMint: h.usdcMint })], [creator])).toBe(
      'NoFeesToClaim',
    );

    await h.sendOk(
      [
        getClaimProtocolFeesInstruction({
          marketId: id,
          caller: bob.publicKey,
          usdcMint: h.usdcMint,
          protocolFeeWallet: h.protocolFeeWallet,
        }),
      ],
      [bob],
    );
    expect(h.usdc(vaultOf(id))).toBe(0n);
    expect(h.totalUsdc(everyone())).toBe(totalBefore);
  });
});
