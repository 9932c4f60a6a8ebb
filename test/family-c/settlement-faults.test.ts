/**
 * Settlement through a hostile cluster: dropped transactions, slow confirmations, blockhashes
 * that expire within two blocks, and sends the node refuses. Every fill still ends settled,
 * exactly once (one receipt each), and the chain's balances agree with the database.
 */
import type { PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFillReceiptPda } from '@pmx/programs';
import { tokenBalance } from '../family-b/family-b.harness.js';
import {
  clobWrite,
  createClobMarket,
  depositedTrader,
  get,
  openClobHarness,
  place,
  USDC,
  waitFor,
  type CHarness,
} from './family-c.harness.js';

let h: CHarness;
beforeAll(async () => {
  h = await openClobHarness({ CLOB_SETTLE_SWEEP_INTERVAL_MS: '500', OUTBOUND_RESUME_INTERVAL_MS: '1000' });
});
afterAll(async () => {
  h?.ledger.faults.reset();
  await h?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('settlement under faults', () => {
  it('settles every fill exactly once through drops, delays, early expiry and refused sends', async () => {
    const market = await createClobMarket(h);
    const maker = await depositedTrader(h, 100n * USDC);
    const taker = await depositedTrader(h, 100n * USDC);
    const mk = maker.publicKey.toBase58();
    await clobWrite(h, '/v2/clob/account/split', { pubkey: mk, marketId: market.id, amount: (30n * USDC).toString() }, maker);
    await waitFor('split indexed', async () =>
      (await get(h, `/v2/clob/account/balances?pubkey=${mk}`)).json().markets[0]?.yesTokens === '30000000' ? true : undefined,
    );
    const feeWallet = h.daemon.chain.wallets.protocolFee.publicKey;
    const fee0 = await tokenBalance(h, h.usdcMint, feeWallet);

    h.ledger.faults.set({ dropRate: 0.3, confirmDelayMs: 300, expireBlockhashesEarly: true, failNextSends: 5 });
    const fillIds: string[] = [];
    for (let i = 0; i < 20; i++) {
      await place(h, maker, { market: market.marketPubkey, side: 'sell', outcome: 'yes', priceBps: 4000 + i * 100, quantity: 1n * USDC });
      const r = await place(h, taker, {
        market: market.marketPubkey,
        side: 'buy',
        outcome: 'yes',
        priceBps: 9000,
        quantity: 1n * USDC,
        timeInForce: 'ioc',
      });
      fillIds.push(...(r.fills as Json[]).map((f) => f.id as string));
    }
    expect(fillIds).toHaveLength(20);
    const fills = await waitFor(
      'every fill settled',
      async () => {
        const rows = await Promise.all(fillIds.map(async (id) => (await get(h, `/v2/clob/fills/${id}`)).json().fill as Json));
        return rows.every((f) => f.status === 'settled') ? rows : undefined;
      },
      90_000,
    ).catch(async (error) => {
      const rows = await Promise.all(fillIds.map(async (id) => (await get(h, `/v2/clob/fills/${id}`)).json().fill as Json));
      const stuck = rows.filter((f) => f.status !== 'settled').map((f) => f.batchId as string);
      const outbound = await h.daemon.db.db
        .selectFrom('clob_settlement_batches as b')
        .innerJoin('outbound_transactions as o', 'o.id', 'b.outbound_id')
        .select(['b.id', 'b.status as batch', 'o.status', 'o.attempts', 'o.last_error', 'o.signature', 'b.fill_count'])
        .where('b.id', 'in', stuck.length ? stuck : ['-'])
        .execute();
      throw new Error(
        `${(error as Error).message}: ${JSON.stringify(rows.map((f) => [f.status, f.retryCount, f.failureReason]))}\n${JSON.stringify(outbound, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`,
      );
    });
    h.ledger.faults.reset();

    // One receipt per fill, each on chain once; what the receipts say the fills moved is what moved.
    const receipts = await h.daemon.chain.client.getMultipleAccounts(
      fillIds.map((id) => findFillReceiptPda(id, h.daemon.chain.programs.exchange!)[0].toBase58()),
    );
    expect(receipts.every((r) => r !== null)).toBe(true);
    const paid = fills.reduce((s, f) => s + BigInt(f.usdcAmount) + BigInt(f.takerFee), 0n);
    const received = fills.reduce((s, f) => s + BigInt(f.makerUsdcAmount) + BigInt(f.makerRebate), 0n);
    const protocol = fills.reduce((s, f) => s + BigInt(f.protocolFee), 0n);
    const escrow = (owner: PublicKey) =>
      waitFor('indexed', async () => (await get(h, `/v2/clob/account/balances?pubkey=${owner.toBase58()}`)).json() as Json);
    const tb = await waitFor('taker settled balance', async () => {
      const b = await escrow(taker.publicKey);
      return b.smartWalletBalance === (100n * USDC - paid).toString() ? b : undefined;
    });
    expect(tb.markets[0].yesTokens).toBe(String(20n * USDC));
    const mb = await waitFor('maker settled balance', async () => {
      const b = await escrow(maker.publicKey);
      return b.smartWalletBalance === (70n * USDC + received).toString() ? b : undefined;
    });
    expect(mb.markets[0].yesTokens).toBe(String(10n * USDC));
    // Direct fills: the taker's payment = the maker's receipt + protocol fees + dust.
    const dust = fills.reduce((s, f) => s + BigInt(f.usdcAmount) - BigInt(f.makerUsdcAmount), 0n);
    expect((await tokenBalance(h, h.usdcMint, feeWallet)) - fee0).toBe(protocol + dust);
  }, 150_000);
});
