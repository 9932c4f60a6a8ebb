/**
 * What traders read must be true (issue 25, part 4), on a real stack:
 * - positions count splits, merges and redemptions: a trader who splits, sells part and redeems
 *   the rest shows a total PnL equal to its cash result;
 * - the summary keeps "no price" (null, counted in unpricedPositions) apart from zero;
 * - an order whose fills failed does not read filled: filledQuantity counts fills that did not
 *   fail, a fill given back returns its quantity to the resting order, and an order that no longer
 *   rests with every fill failed reads cancelled / fill_failed;
 * - a market order asked to rest (gtc) is refused.
 */
import { randomBytes } from 'node:crypto';
import { Transaction, type Keypair } from '@solana/web3.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getWithdrawInstruction } from '@pmx/programs';
import { walletPositionGaps } from '../../db/repositories/clob-positions.repository.js';
import { applyWalletMoves } from '../../src/services/family-c/positions.service.js';
import { PG_AVAILABLE, POSTGRES_URL } from '../helpers/databases.js';
import {
  admin,
  clobWrite,
  createClobMarket,
  depositedTrader,
  get,
  openClobHarness,
  place,
  post,
  signedOrder,
  USDC,
  waitFor,
  type CHarness,
} from './family-c.harness.js';

/** A fresh PostgreSQL schema for the daemon (dropped after), or SQLite (the default). */
async function databaseEnv(dialect: 'sqlite' | 'postgres'): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (dialect === 'sqlite') return { env: {}, drop: async () => {} };
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const run = async (text: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(text);
    await client.end();
  };
  await run(`create schema ${schema}`);
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { env: { DATABASE_URL: url.toString() }, drop: () => run(`drop schema ${schema} cascade`) };
}

let h: CHarness;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const balances = async (pubkey: string): Promise<Json> => (await get(h, `/v2/clob/account/balances?pubkey=${pubkey}`)).json();
const positions = async (pubkey: string): Promise<Json[]> => (await get(h, `/v2/clob/positions?pubkey=${pubkey}`)).json().positions;
const order = async (id: string): Promise<Json> => (await get(h, `/v2/clob/orders/${id}`)).json().order;

/** The owner empties its smart wallet with its own transaction, not through the API. */
async function withdrawBehindApi(owner: Keypair, amount: bigint): Promise<void> {
  const { blockhash } = await h.daemon.chain.client.getLatestBlockhash();
  const tx = new Transaction({ feePayer: owner.publicKey, recentBlockhash: blockhash });
  tx.add(getWithdrawInstruction({ owner: owner.publicKey, usdcMint: h.usdcMint, amount, programId: h.daemon.chain.programs.exchange }));
  tx.sign(owner);
  expect((await h.ledger.sendRawTransaction(tx.serialize(), { preflight: true })).err).toBeNull();
}

async function fillEnds(id: string, status: string): Promise<Json> {
  return waitFor(
    `fill ${status}`,
    async () => {
      const f = (await get(h, `/v2/clob/fills/${id}`)).json().fill as Json;
      return f.status === status ? f : undefined;
    },
    20_000,
  );
}

describe.each([
  { dialect: 'sqlite' as const, available: true },
  { dialect: 'postgres' as const, available: PG_AVAILABLE },
])('what traders read on $dialect', ({ dialect, available }) => {
  let database: Awaited<ReturnType<typeof databaseEnv>> | undefined;
  beforeAll(async () => {
    if (!available) return;
    database = await databaseEnv(dialect);
    h = await openClobHarness({ CLOB_SETTLE_SWEEP_INTERVAL_MS: '500', ...database.env });
  });
  afterAll(async () => {
    await h?.close();
    await database?.drop();
  });

  it.skipIf(!available)(
    'split 20, sell 8 YES, YES wins, redeem 12: PnL equals the cash result; no price reads null, not 0',
    async () => {
      const market = await createClobMarket(h);
      const seller = await depositedTrader(h, 30n * USDC);
      const buyer = await depositedTrader(h, 20n * USDC);
      const sk = seller.publicKey.toBase58();
      await clobWrite(h, '/v2/clob/account/split', { pubkey: sk, marketId: market.id, amount: (20n * USDC).toString() }, seller);
      // The split is seen in the smart wallet: 20 YES and 20 NO at 5000 each (10 USDC per side).
      const split = await waitFor(
        'split counted',
        async () => {
          const p = await positions(sk);
          return p.length === 2 && p.every((x) => x.netQuantity === '20000000') ? p : undefined;
        },
        20_000,
      );
      expect(split.map((x) => [x.outcome, x.totalCost, x.unrealizedPnl]).sort()).toEqual([
        ['no', '10000000', null],
        ['yes', '10000000', null],
      ]);
      // Nothing rests in the book: no price, which the summary does not turn into "0".
      const unpriced = (await get(h, `/v2/clob/positions/summary?pubkey=${sk}`)).json();
      expect(unpriced).toMatchObject({
        totalUnrealizedPnl: null,
        unpricedPositions: 2,
        markets: [{ marketId: market.id, unrealizedPnl: null, unpricedPositions: 2 }],
      });

      await place(h, buyer, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 6000, quantity: 8n * USDC });
      const priced = (await get(h, `/v2/clob/positions/summary?pubkey=${sk}`)).json();
      expect(priced.unpricedPositions).toBeLessThan(2); // the bid prices YES (and NO, if the book derives it)
      expect(typeof priced.totalUnrealizedPnl).toBe('string');
      const sale = await place(h, seller, {
        market: market.marketPubkey,
        side: 'sell',
        outcome: 'yes',
        priceBps: 6000,
        quantity: 8n * USDC,
        timeInForce: 'ioc',
      });
      await fillEnds(sale.fills[0].id, 'settled');

      expect((await admin(h, `/v2/admin/clob/markets/${market.id}/resolve`, { outcome: 'yes' })).statusCode).toBe(200);
      await clobWrite(h, '/v2/clob/account/redeem', { pubkey: sk, marketId: market.id, amount: (12n * USDC).toString() }, seller);
      const end = await waitFor(
        'redemption counted',
        async () => {
          const p = await positions(sk);
          return p.find((x) => x.outcome === 'yes' && x.netQuantity === '0') ? p : undefined;
        },
        20_000,
      );
      const wallet = await waitFor('redemption indexed', async () => {
        const b = await balances(sk);
        return b.markets.find((m: Json) => m.marketId === market.id)?.yesTokens === '0' ? b : undefined;
      });
      // Cash: −20 (split) + 4.8 − taker fee (sale) + 12 (redemption); PnL over both outcomes, NO at 0.
      const cash = BigInt(wallet.smartWalletBalance) - 30n * USDC;
      const fee = BigInt(sale.fills[0].takerFee);
      expect(cash).toBe(-20n * USDC + 4_800_000n - fee + 12n * USDC);
      const pnl = end.reduce((sum, x) => sum + BigInt(x.realizedPnl) + BigInt(x.unrealizedPnl), 0n);
      expect(pnl).toBe(cash);
      expect(end.find((x) => x.outcome === 'no')).toMatchObject({ netQuantity: '20000000', unrealizedPnl: '-10000000', currentPrice: 0 });
      const summary = (await get(h, `/v2/clob/positions/summary?pubkey=${sk}`)).json();
      expect(BigInt(summary.totalRealizedPnl) + BigInt(summary.totalUnrealizedPnl)).toBe(cash);
      expect(summary.unpricedPositions).toBe(0);
      // The job pages through wallets by (owner, market): pages of one visit them all, and nothing is left to explain.
      const gaps = [];
      for (let after = null as { owner: string; marketId: string } | null; ;) {
        const page = await walletPositionGaps(h.daemon.db.db, after, 1);
        if (page.length === 0) break;
        gaps.push(...page);
        after = page[0]!;
      }
      expect(gaps.filter((g) => g.owner === sk)).toEqual([]);
      expect(await applyWalletMoves({ db: h.daemon.db.db }, 1)).toBe(0);
    },
    90_000,
  );

  it.skipIf(!available)(
    'an order whose fills failed reads what stands: cancelled fill_failed, or its quantity given back',
    async () => {
      const market = await createClobMarket(h);
      const m = market.marketPubkey;
      const payer = await depositedTrader(h, 10n * USDC); // pays for nothing: its wallet is emptied behind the API
      const seller = await depositedTrader(h, 10n * USDC);
      const sk = seller.publicKey.toBase58();
      await clobWrite(h, '/v2/clob/account/split', { pubkey: sk, marketId: market.id, amount: (10n * USDC).toString() }, seller);
      await waitFor('split indexed', async () => ((await balances(sk)).markets[0]?.yesTokens === '10000000' ? true : undefined));
      // The index stands still (it would see the empty wallet and cancel the bid first) and so does
      // settlement until both fills are matched against the wallet that is about to be emptied.
      const [index, platform] = [h.daemon.queues.get('index'), h.daemon.queues.get('platform')];
      await index.pause();
      await platform.pause();
      let resting: Json;
      let ioc: Json;
      try {
        // 1. The seller's ask rests, the payer takes 4 of it: the innocent ask gets 4 back.
        resting = await place(h, seller, { market: m, side: 'sell', outcome: 'yes', priceBps: 5000, quantity: 6n * USDC });
        const take = await place(h, payer, {
          market: m,
          side: 'buy',
          outcome: 'yes',
          priceBps: 5000,
          quantity: 4n * USDC,
          timeInForce: 'ioc',
        });
        expect(take.fills).toHaveLength(1);
        // 2. The payer's bid rests, the seller's ioc sell fills all of it: it no longer rests.
        await place(h, payer, { market: m, side: 'buy', outcome: 'yes', priceBps: 4000, quantity: 4n * USDC });
        ioc = await place(h, seller, { market: m, side: 'sell', outcome: 'yes', priceBps: 4000, quantity: 4n * USDC, timeInForce: 'ioc' });
        expect(ioc).toMatchObject({ status: 'filled', filledQuantity: '4000000' });
        await withdrawBehindApi(payer, 10n * USDC);
      } finally {
        await platform.resume();
        await index.resume();
      }
      const failed = await Promise.all(
        [...((await get(h, `/v2/clob/fills?pubkey=${sk}`)).json().fills as Json[])].map((f) =>
          fillEnds(f.id, 'failed_insufficient_balance'),
        ),
      );
      expect(failed).toHaveLength(2);

      // The ioc sell's only fill failed: nothing of it traded.
      expect(await order(ioc.orderId)).toMatchObject({
        status: 'cancelled',
        cancelReason: 'fill_failed',
        filledQuantity: '0',
        remainingQuantity: '0',
      });
      // The resting ask: its 4 come back (the give-back), it reads open with nothing filled.
      const back = await waitFor(
        'quantity given back',
        async () => {
          const o = await order(resting.orderId);
          return o.remainingQuantity === '6000000' ? o : undefined;
        },
        20_000,
      );
      expect(back).toMatchObject({ status: 'open', filledQuantity: '0', cancelReason: null });
      // Listed as it reads.
      const cancelled = (await get(h, `/v2/clob/orders?pubkey=${sk}&status=cancelled`)).json().orders as Json[];
      expect(cancelled.map((o) => [o.id, o.cancelReason])).toEqual([[ioc.orderId, 'fill_failed']]);
      expect((await get(h, `/v2/clob/orders?pubkey=${sk}&status=filled`)).json().orders as Json[]).toEqual([]);
    },
    90_000,
  );

  it.skipIf(!available)(
    'refuses a market order with timeInForce gtc (400 INVALID_ORDER) and stores nothing',
    async () => {
      const market = await createClobMarket(h);
      const t = await depositedTrader(h, 5n * USDC);
      const body = signedOrder(t, {
        market: market.marketPubkey,
        side: 'buy',
        outcome: 'yes',
        priceBps: 5000,
        quantity: USDC,
        orderType: 'market',
        timeInForce: 'gtc',
      });
      const res = await post(h, '/v2/clob/orders', body);
      expect([res.statusCode, res.json().error]).toEqual([400, 'INVALID_ORDER']);
      expect(res.json().message).toMatch(/market order cannot be gtc/);
      expect((await get(h, `/v2/clob/orders?pubkey=${t.publicKey.toBase58()}`)).json().orders).toEqual([]);
      // The same order as ioc is accepted (nothing to take: it ends cancelled).
      const ioc = await post(
        h,
        '/v2/clob/orders',
        signedOrder(t, {
          market: market.marketPubkey,
          side: 'buy',
          outcome: 'yes',
          priceBps: 5000,
          quantity: USDC,
          orderType: 'market',
          timeInForce: 'ioc',
        }),
      );
      expect(ioc.statusCode).toBe(200);
    },
    60_000,
  );
});
