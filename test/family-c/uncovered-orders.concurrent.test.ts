/**
 * Issue 25, part 3, the concurrent variant: 50 withdraw builds, bids and withdraw landings of five
 * traders, all in flight at once (some builds and bids are refused, some landings fail on chain:
 * all allowed). Once the index has read every landing, no wallet is below what it commits,
 * and a seller then taking every resting bid sees every one of its fills settle: no innocent fill
 * fails `failed_insufficient_balance`.
 */
import type { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clobWrite,
  createClobMarket,
  depositedTrader,
  get,
  openClobHarness,
  place,
  post,
  signAndSendV0,
  signedOrder,
  USDC,
  waitFor,
  type CHarness,
} from './family-c.harness.js';

let h: CHarness;
beforeAll(async () => {
  h = await openClobHarness();
});
afterAll(async () => h?.close());

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const jitter = () => new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 40)));

describe('concurrent withdrawals and orders', () => {
  it('50 mixed builds, bids and landings: every wallet covers what rests, no innocent fill fails', async () => {
    const market = await createClobMarket(h);
    const makers = await Promise.all(Array.from({ length: 5 }, () => depositedTrader(h, 20n * USDC)));
    const seller = await depositedTrader(h, 250n * USDC);
    await clobWrite(
      h,
      '/v2/clob/account/split',
      { pubkey: seller.publicKey.toBase58(), marketId: market.id, amount: String(200n * USDC) },
      seller,
    ); // enough YES for all 20 bids

    // Per trader: three withdraw builds of 8 USDC and four bids committing 3–4.5 USDC each, all sent
    // together (builds and bids race), and each built withdrawal landed once that trader's bids were
    // answered: 3 + 4 + 3 ops × 5 traders = 50, in flight at once. A build answered before the bids
    // committed and landed after them is the attack: the wallet ends below its commitments.
    const outcomes = { builds: 0, buildsRefused: 0, landed: 0, landingsFailed: 0, bids: 0, bidsRefused: 0 };
    const build = async (t: Keypair): Promise<string | null> => {
      await jitter();
      const res = await post(h, '/v2/clob/account/withdraw', { pubkey: t.publicKey.toBase58(), amount: String(8n * USDC) });
      if (res.statusCode === 200) return (outcomes.builds++, res.json().transaction as string);
      expect(res.json().error).toBe('INSUFFICIENT_WITHDRAWABLE');
      return (outcomes.buildsRefused++, null);
    };
    const bid = async (t: Keypair, priceBps: number) => {
      await jitter();
      const res = await post(
        h,
        '/v2/clob/orders',
        signedOrder(t, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps, quantity: 10n * USDC }),
      );
      if (res.statusCode === 200) return void outcomes.bids++;
      expect(res.json().error).toBe('INSUFFICIENT_BALANCE');
      outcomes.bidsRefused++;
    };
    const land = async (t: Keypair, built: Promise<string | null>, bidsAnswered: Promise<unknown>) => {
      const [transaction] = await Promise.all([built, bidsAnswered]);
      if (!transaction) return;
      await jitter();
      try {
        await signAndSendV0(h, transaction, t);
        outcomes.landed++;
      } catch {
        outcomes.landingsFailed++; // the wallet no longer held 8 USDC when it landed
      }
    };
    await Promise.all(
      makers.map((t) => {
        const builds = [0, 1, 2].map(() => build(t));
        const bids = Promise.all([3000, 3500, 4000, 4500].map((p) => bid(t, p)));
        return Promise.all([bids, ...builds.map((b) => land(t, b, bids))]);
      }),
    );
    expect(outcomes.builds + outcomes.buildsRefused).toBe(15);
    expect(outcomes.bids + outcomes.bidsRefused).toBe(20);
    expect(outcomes.landed).toBeGreaterThan(0);

    // Once the index has read each wallet as the chain holds it, what rests and waits is covered.
    for (const t of makers) {
      const owner = t.publicKey.toBase58();
      await waitFor(
        `${owner} indexed and covered`,
        async () => {
          const onChain = (await get(h, `/v2/clob/account/setup?pubkey=${owner}`)).json() as Json;
          const b = (await get(h, `/v2/clob/account/balances?pubkey=${owner}`)).json() as Json;
          const account = await h.daemon.chain.client.getAccount(onChain.usdcAccount);
          const chainBalance = account!.data.readBigUInt64LE(64); // an SPL token account's amount
          return b.smartWalletBalance === chainBalance.toString() && BigInt(b.totalCommitted) <= BigInt(b.smartWalletBalance)
            ? b
            : undefined;
        },
        15_000,
      );
    }

    // A seller takes every resting bid: each fill settles.
    const book = (await get(h, `/v2/clob/markets/${market.id}/orderbook`)).json() as Json;
    const resting = (book.yes.bids as Json[]).reduce((sum, l) => sum + BigInt(l.size), 0n);
    expect(resting).toBeGreaterThan(0n);
    const sell = await place(h, seller, {
      market: market.marketPubkey,
      side: 'sell',
      outcome: 'yes',
      priceBps: 1,
      quantity: resting,
      timeInForce: 'ioc',
    });
    expect(sell.fills.length).toBeGreaterThan(0);
    const fills = await waitFor(
      'every fill settled or failed',
      async () => {
        const rows = await h.daemon.db.db
          .selectFrom('clob_fills')
          .select(['id', 'status', 'failure_reason'])
          .where('market_id', '=', market.id)
          .execute();
        return rows.every((r) => !['matched', 'settling', 'retrying'].includes(r.status)) ? rows : undefined;
      },
      30_000,
    );
    expect(fills.filter((f) => f.status !== 'settled')).toEqual([]);
    expect(fills).toHaveLength(sell.fills.length);
  }, 120_000);
});
