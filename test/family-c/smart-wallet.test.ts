/**
 * Family C part 1 through the API on a real stack: an operator creates an orderbook market, a
 * trader deposits twice, reads setup and balances (indexed from notifications), withdraws part,
 * is refused beyond the withdrawable amount, splits and merges, and redeems after resolution.
 * Every USDC raw unit is accounted for between the wallet, the smart wallet and the vault.
 */
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenBalance } from '../family-b/family-b.harness.js';
import {
  admin,
  clobWrite,
  createClobMarket,
  get,
  openClobHarness,
  post,
  trader,
  USDC,
  waitFor,
  waitForBalance,
  type CHarness,
} from './family-c.harness.js';

let h: CHarness;
beforeAll(async () => {
  h = await openClobHarness();
});
afterAll(async () => h?.close());

async function vaultBalance(market: { id: string }): Promise<bigint> {
  const res = await get(h, `/v2/clob/markets/${market.id}`);
  return tokenBalance(h, h.usdcMint, new PublicKey(res.json().market.marketPubkey));
}

describe('smart wallet lifecycle', () => {
  it('deposits, withdraws, splits, merges and redeems with every raw unit accounted for', async () => {
    const market = await createClobMarket(h);
    const t = await trader(h, 100n * USDC);
    const pubkey = t.publicKey.toBase58();

    const setup0 = (await get(h, `/v2/clob/account/setup?pubkey=${pubkey}`)).json();
    expect(setup0).toMatchObject({ ready: false, smartWalletBalance: '0', smartWalletExists: false });

    const deposit = await clobWrite(h, '/v2/clob/account/deposit', { pubkey, amount: (30n * USDC).toString() }, t);
    expect(deposit.message).toContain('30 USDC');
    await waitForBalance(h, t, 30n * USDC);
    await clobWrite(h, '/v2/clob/account/deposit', { pubkey, amount: (20n * USDC).toString() }, t);
    const afterDeposits = await waitForBalance(h, t, 50n * USDC);
    expect(afterDeposits).toMatchObject({
      withdrawable: '50000000',
      totalCommitted: '0',
      walletBalance: '50000000',
      collateral: '50000000',
    });

    const setup = (await get(h, `/v2/clob/account/setup?pubkey=${pubkey}`)).json();
    expect(setup).toMatchObject({ ready: true, smartWalletBalance: '50000000', smartWalletExists: true });

    await clobWrite(h, '/v2/clob/account/withdraw', { pubkey, amount: (10n * USDC).toString() }, t);
    await waitForBalance(h, t, 40n * USDC);

    const tooMuch = await post(h, '/v2/clob/account/withdraw', { pubkey, amount: '40000001' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json()).toEqual({
      error: 'INSUFFICIENT_WITHDRAWABLE',
      message:
        'Requested withdrawal of 40000001 exceeds withdrawable balance of 40000000. Cancel open orders to free committed collateral.',
      requested: '40000001',
      withdrawable: '40000000',
    });

    await clobWrite(h, '/v2/clob/account/split', { pubkey, marketId: market.id, amount: (15n * USDC).toString() }, t);
    const afterSplit = await waitForBalance(h, t, 25n * USDC);
    await waitFor('split tokens indexed', async () => {
      const body = (await get(h, `/v2/clob/account/balances?pubkey=${pubkey}`)).json();
      return body.markets[0]?.yesTokens === '15000000' ? body : undefined;
    });
    expect(afterSplit.smartWalletBalance).toBe('25000000');
    expect(await vaultBalance(market)).toBe(15n * USDC);

    await clobWrite(h, '/v2/clob/account/merge', { pubkey, marketId: market.marketId, amount: (5n * USDC).toString() }, t);
    await waitForBalance(h, t, 30n * USDC);
    expect(await vaultBalance(market)).toBe(10n * USDC);

    const early = await post(h, '/v2/clob/account/redeem', { pubkey, marketId: market.id, amount: '1' });
    expect(early.statusCode).toBe(400);
    expect(early.json().error).toBe('MARKET_NOT_RESOLVED');

    const resolved = await admin(h, `/v2/admin/clob/markets/${market.id}/resolve`, { outcome: 'yes' });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json().market).toMatchObject({ status: 'resolved', outcome: 'yes' });

    const redeem = await clobWrite(h, '/v2/clob/account/redeem', { pubkey, marketId: market.id, amount: (10n * USDC).toString() }, t);
    expect(redeem.market).toEqual({ id: market.id, outcome: 'yes' });
    await waitForBalance(h, t, 40n * USDC);
    expect(await vaultBalance(market)).toBe(0n);

    // 100 USDC minted to the trader: 60 in the wallet (100 − 50 deposited + 10 withdrawn), 40 in the smart wallet.
    const wallet = await tokenBalance(h, h.usdcMint, t.publicKey);
    expect(wallet).toBe(60n * USDC);
    const final = (await get(h, `/v2/clob/account/balances?pubkey=${pubkey}`)).json();
    expect(BigInt(final.smartWalletBalance) + wallet).toBe(100n * USDC);
    expect(getAssociatedTokenAddressSync(h.usdcMint, t.publicKey).toBase58()).toBeTruthy();
  });
});
