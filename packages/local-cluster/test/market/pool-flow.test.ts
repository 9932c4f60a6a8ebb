/**
 * Pool mode (seed 0) and cancellation through the real embedded ledger: fixed 50/50 price, no
 * selling, NoOpposition, pro-rata redemption that empties the pot exactly, and the cancel path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Keypair } from '@solana/web3.js';
import {
  findMarketPda,
  getCancelMarketInstruction,
  getCreateMarketInstruction,
  getInitMintsInstruction,
  getRedeemInstruction,
  getResolveInstruction,
  getSellInstruction,
  quoteBuy,
  toMarketState,
} from '@pmx/programs';
import { MarketHarness, USDC } from './harness.js';

let h: MarketHarness;
let creator: Keypair, alice: Keypair, bob: Keypair, carol: Keypair;

beforeAll(async () => {
  h = await MarketHarness.open();
  [creator, alice, bob, carol] = await Promise.all([h.wallet(), h.wallet(), h.wallet(), h.wallet()]);
});
afterAll(async () => h?.close());

const vault = (id: bigint) => findMarketPda(id)[0];
const resolveIx = (id: bigint, by: Keypair, side: 'YES' | 'NO' = 'NO') =>
  getResolveInstruction({ marketId: id, creator: by.publicKey, usdcMint: h.usdcMint, winningSide: side });
const redeemIx = (id: bigint, who: Keypair, side: 'YES' | 'NO') =>
  getRedeemInstruction({ marketId: id, side, owner: who.publicKey, usdcMint: h.usdcMint });

describe('Pool market on the embedded ledger', () => {
  let id: bigint;

  it('sells tokens at a fixed 0.5 and refuses selling', async () => {
    id = await h.createMarket(creator, { seed: 0n, tradeFeeBps: 100 });
    expect(h.market(id).mode).toBe('pool');
    const q = quoteBuy(toMarketState(h.market(id)), 'YES', 10n * USDC);
    await h.sendOk(h.buyIxs(id, alice.publicKey, 'YES', 10n * USDC, q.outputAmount), [alice]);
    // 10 USDC − 1 % − 1.5 % = 9.75 USDC net → 19.5 tokens
    expect(h.tokens(alice.publicKey, id, 'YES')).toBe(19_500_000n);
    const sell = getSellInstruction({ marketId: id, side: 'YES', owner: alice.publicKey, usdcMint: h.usdcMint, amount: USDC, minOut: 0n });
    expect(await h.sendErr([sell], [alice])).toBe('SellNotAllowedInPoolMode');
  });

  it('refuses resolution while one side has no holder (NoOpposition)', async () => {
    h.ledger.warpTime(3601);
    expect(await h.sendErr([resolveIx(id, creator)], [creator])).toBe('NoOpposition');
  });

  it('splits the pot pro rata among winners; the last redeemer empties it', async () => {
    h.ledger.warpTime(-3601);
    await h.sendOk(h.buyIxs(id, bob.publicKey, 'NO', 7n * USDC), [bob]);
    await h.sendOk(h.buyIxs(id, carol.publicKey, 'NO', 3n * USDC), [carol]);
    expect(await h.sendErr(h.buyIxs(id, carol.publicKey, 'NO', 99_999n), [carol])).toBe('AmountTooSmall');
    h.ledger.warpTime(3601);
    await h.sendOk([resolveIx(id, creator, 'NO')], [creator]);
    const pot = h.market(id).collateral;
    const bobTokens = h.tokens(bob.publicKey, id, 'NO');
    const supply = h.market(id).noSupply;
    const bobBefore = h.usdc(bob.publicKey);
    await h.sendOk([redeemIx(id, bob, 'NO')], [bob]);
    expect(h.usdc(bob.publicKey) - bobBefore).toBe((pot * bobTokens) / supply); // rounded down
    await h.sendOk([redeemIx(id, carol, 'NO')], [carol]);
    await h.sendOk([redeemIx(id, alice, 'YES')], [alice]); // losing side: burned for nothing
    expect(h.tokens(alice.publicKey, id, 'YES')).toBe(0n);
    const m = h.market(id);
    expect(m.collateral).toBe(0n);
    expect(h.usdc(vault(id))).toBe(m.creatorFeesAccrued + m.protocolFeesAccrued);
  });
});

describe('a Pool creator without a USDC account', () => {
  it('creates, initialises and resolves a Pool market', async () => {
    const poor = Keypair.generate();
    await h.ledger.airdrop(poor.publicKey, 1_000_000_000n);
    const id = h.marketCounter() + 1n;
    await h.sendOk(
      [
        getCreateMarketInstruction({
          marketId: id,
          creator: poor.publicKey,
          usdcMint: h.usdcMint,
          title: 'No USDC',
          description: '',
          yesTicker: 'Y',
          noTicker: 'N',
          resolutionTime: BigInt(h.ledger.unixTimestamp + 60),
          seedAmount: 0n,
          tradeFeeBps: 400,
        }),
      ],
      [poor],
    );
    await h.sendOk([getInitMintsInstruction({ marketId: id, creator: poor.publicKey })], [poor]);
    await h.sendOk(h.buyIxs(id, alice.publicKey, 'YES', USDC), [alice]);
    await h.sendOk(h.buyIxs(id, bob.publicKey, 'NO', USDC), [bob]);
    h.ledger.warpTime(61);
    await h.sendOk([resolveIx(id, poor, 'YES')], [poor]);
    expect(h.market(id).status).toBe('resolved');
  });
});

describe('cancellation', () => {
  it('refunds the whole seed when the mints were never initialised', async () => {
    const id = h.marketCounter() + 1n;
    const before = h.usdc(creator.publicKey);
    await h.sendOk(
      [
        getCreateMarketInstruction({
          marketId: id,
          creator: creator.publicKey,
          usdcMint: h.usdcMint,
          title: 'Broken',
          description: '',
          yesTicker: 'Y',
          noTicker: 'N',
          resolutionTime: BigInt(h.ledger.unixTimestamp + 86_400),
          seedAmount: 25n * USDC,
          tradeFeeBps: 200,
        }),
      ],
      [creator],
    );
    expect(h.usdc(creator.publicKey)).toBe(before - 25n * USDC);
    await h.sendOk([getCancelMarketInstruction({ marketId: id, creator: creator.publicKey, usdcMint: h.usdcMint })], [creator]);
    expect(h.usdc(creator.publicKey)).toBe(before);
    expect(h.usdc(vault(id))).toBe(0n);
    expect(h.market(id).status).toBe('cancelled');
  });

  it('cannot cancel a market that can still resolve; can cancel a one-sided one after its time', async () => {
    const id = await h.createMarket(creator, { seed: 100n * USDC });
    await h.sendOk(h.buyIxs(id, alice.publicKey, 'YES', 20n * USDC), [alice]);
    const cancel = getCancelMarketInstruction({ marketId: id, creator: creator.publicKey, usdcMint: h.usdcMint });
    expect(await h.sendErr([cancel], [creator])).toBe('CannotCancel');
    h.ledger.warpTime(3601);
    expect(await h.sendErr([getCancelMarketInstruction({ marketId: id, creator: bob.publicKey, usdcMint: h.usdcMint })], [bob])).toBe(
      'Unauthorized',
    );

    const m = h.market(id);
    const creatorBefore = h.usdc(creator.publicKey);
    await h.sendOk([cancel], [creator]);
    const reserves = m.yesReserve + m.noReserve;
    const refund = (m.collateral * reserves) / (reserves + m.yesSupply + m.noSupply);
    expect(h.usdc(creator.publicKey) - creatorBefore).toBe(refund);
    expect(h.market(id).status).toBe('cancelled');

    const aliceBefore = h.usdc(alice.publicKey);
    await h.sendOk([redeemIx(id, alice, 'YES')], [alice]);
    // the only holder takes the whole remaining pot (about 0.5 USDC per token)
    expect(h.usdc(alice.publicKey) - aliceBefore).toBe(m.collateral - refund);
    expect(h.market(id).collateral).toBe(0n);
    expect(await h.sendErr([resolveIx(id, creator)], [creator])).toBe('MarketNotActive');
  });
});
