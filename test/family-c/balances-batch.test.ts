/**
 * The index's reaction reads several owners' balances at once (`balancesViews`, issue 31): each
 * owner's answer must be exactly the one read alone and the one the balances endpoint serves,
 * whatever the other owners hold. The case that matters: an owner who only commits in a market
 * where another owner of the same read holds tokens (that market comes back from the read by
 * mint, not by id) must still list it.
 */
import type { PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balancesView, balancesViews } from '../../src/services/family-c/smart-wallet.service.js';
import type { FamilyCContext } from '../../src/services/family-c/context.js';
import { createClobMarket, depositedTrader, get, openClobHarness, place, splitTraders, USDC, type CHarness } from './family-c.harness.js';

let h: CHarness;
beforeAll(async () => {
  h = await openClobHarness();
}, 60_000);
afterAll(async () => h?.close());

describe('balancesViews', () => {
  it('answers each owner exactly as read alone and as served, whatever the others hold', async () => {
    const [m1, m2] = [await createClobMarket(h), await createClobMarket(h)];
    const [a] = await splitTraders(h, m1, 1, 40n * USDC, 10n * USDC); // tokens in m1
    const [b] = await splitTraders(h, m2, 1, 40n * USDC, 10n * USDC); // tokens in m2
    const c = await depositedTrader(h, 5n * USDC); // USDC only
    // A commits in m2 with a resting bid, without tokens there.
    await place(h, a!, { market: m2.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 4000, quantity: 1_000_000n });
    const ctx = {
      db: h.daemon.db.db,
      chain: h.daemon.chain.client,
      programId: h.daemon.chain.programs.exchange,
      usdcMint: h.usdcMint,
    } as unknown as FamilyCContext;
    const owners = [a!, b!, c].map((t) => t.publicKey);
    const together = await balancesViews(ctx, owners);
    const alone = [];
    for (const o of owners) alone.push(await balancesView(ctx, o));
    expect(together).toEqual(alone);
    for (const [i, o] of owners.entries())
      expect((await get(h, `/v2/clob/account/balances?pubkey=${o.toBase58()}`)).json()).toEqual(JSON.parse(JSON.stringify(together[i])));

    const marketsOf = (i: number) => new Map(together[i]!.markets.map((m) => [m.marketId, m]));
    expect(marketsOf(0).get(m1.id)).toMatchObject({ yesTokens: '10000000', committedCollateral: '0' });
    expect(marketsOf(0).get(m2.id)).toMatchObject({ yesTokens: '0', committedCollateral: '400000' });
    expect([...marketsOf(1).keys()]).toEqual([m2.id]);
    expect(together[2]!.markets).toEqual([]);
    expect(together.map((v) => v.pubkey)).toEqual(owners.map((o: PublicKey) => o.toBase58()));
  });
});
