/**
 * The settlement keeper on a real stack: fills of all three types reach the chain (each exactly
 * once, with a receipt), the smart wallets, the vault and the fee wallet move by exactly the
 * fills' amounts, holds are released, and positions show the PnL of the worked example. A settled
 * fill's balances show at once (before the indexer re-reads them), and a fill whose order expires
 * before its registration lands fails instead of being retried forever.
 */
import { AddressLookupTableProgram, PublicKey } from '@solana/web3.js';
import { QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisConnection } from '../../jobs/redis-connection.js';
import { tokenBalance } from '../family-b/family-b.harness.js';
import { clobWrite, createClobMarket, depositedTrader, get, place, post, USDC, waitFor, type CHarness } from './family-c.harness.js';
import { CLOB_DATABASES, openClobHarnessOn } from './dialect-harness.js';

let h: CHarness;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const balances = async (pubkey: string): Promise<Json> => (await get(h, `/v2/clob/account/balances?pubkey=${pubkey}`)).json();

async function settled(ids: string[]): Promise<Json[]> {
  return waitFor(
    'fills settled',
    async () => {
      const fills = await Promise.all(ids.map(async (id) => (await get(h, `/v2/clob/fills/${id}`)).json().fill as Json));
      return fills.every((f) => f.status === 'settled') ? fills : undefined;
    },
    20_000,
  );
}

// On both databases (issue 31: the keeper's writers lock in one order on PostgreSQL: db/row-locks.ts).
describe.each(CLOB_DATABASES.filter((d) => d.available))('settlement on $name', ({ name }) => {
  beforeAll(async () => {
    h = await openClobHarnessOn(name, { CLOB_SETTLE_SWEEP_INTERVAL_MS: '500' });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('settles direct, complementary and sell_complementary fills exactly once, moving exactly their amounts', async () => {
    const market = await createClobMarket(h);
    const m = market.marketPubkey;
    const maker = await depositedTrader(h, 200n * USDC);
    const taker = await depositedTrader(h, 200n * USDC);
    const [mk, tk] = [maker, taker].map((k) => k.publicKey.toBase58()) as [string, string];
    await clobWrite(h, '/v2/clob/account/split', { pubkey: mk, marketId: market.id, amount: (20n * USDC).toString() }, maker);
    await waitFor('split indexed', async () => ((await balances(mk)).markets[0]?.yesTokens === '20000000' ? true : undefined));

    const feeWallet = h.daemon.chain.wallets.protocolFee.publicKey;
    const vault = () => tokenBalance(h, h.usdcMint, new PublicKey(market.marketPubkey));
    const fee0 = await tokenBalance(h, h.usdcMint, feeWallet);
    expect(await vault()).toBe(20n * USDC); // the maker's split

    // direct: maker asks 10 YES at 6000, taker buys them.
    await place(h, maker, { market: m, side: 'sell', outcome: 'yes', priceBps: 6000, quantity: 10n * USDC });
    const direct = await place(h, taker, { market: m, side: 'buy', outcome: 'yes', priceBps: 6000, quantity: 10n * USDC });
    // complementary: maker bids NO at 3000, taker buys YES at 7000.
    await place(h, maker, { market: m, side: 'buy', outcome: 'no', priceBps: 3000, quantity: 5n * USDC });
    const comp = await place(h, taker, { market: m, side: 'buy', outcome: 'yes', priceBps: 7000, quantity: 5n * USDC });
    const fills = [...direct.fills, ...comp.fills] as Json[];
    expect(fills.map((f) => f.fillType)).toEqual(['direct', 'complementary']);
    const done = await settled(fills.map((f) => f.id));
    expect(done.every((f) => typeof f.settleTx === 'string' && f.settledAt)).toBe(true);
    // The keeper sent each batch itself (bytes stored before the send) and confirmed it in the same
    // pass: one attempt, the fill's transaction, no outbound job needed (settle-group.ts).
    const sends = await h.daemon.db.db
      .selectFrom('clob_fills as f')
      .innerJoin('clob_settlement_batches as b', 'b.id', 'f.batch_id')
      .innerJoin('outbound_transactions as o', 'o.id', 'b.outbound_id')
      .select(['o.status', 'o.attempts', 'o.signature', 'f.settle_tx'])
      .where(
        'f.id',
        'in',
        fills.map((f) => f.id as string),
      )
      .execute();
    expect(sends.map((r) => [r.status, Number(r.attempts), r.signature === r.settle_tx])).toEqual([
      ['confirmed', 1, true],
      ['confirmed', 1, true],
    ]);

    // The taker's smart wallet: 200 − (6 + fee 0.015) − (3.5 + fee 0.00875) USDC, 15 YES.
    const takerUsdc = 200n * USDC - 6_000_000n - 15_000n - 3_500_000n - 8_750n;
    const tb = await waitFor('taker balances indexed', async () => {
      const b = await balances(tk);
      return b.smartWalletBalance === takerUsdc.toString() && b.markets[0]?.yesTokens === '15000000' ? b : undefined;
    });
    expect(tb.totalCommitted).toBe('0');
    // The maker: 200 − 20 split + 6 + rebate 0.003 − 1.5 (NO bid) + rebate 5 bps of the taker's 3.5 = 0.00175; 10 YES left, 25 NO.
    const makerUsdc = 200n * USDC - 20n * USDC + 6_000_000n + 3_000n - 1_500_000n + 1_750n;
    await waitFor('maker balances indexed', async () => {
      const b = await balances(mk);
      return b.smartWalletBalance === makerUsdc.toString() &&
        b.markets[0]?.yesTokens === '10000000' &&
        b.markets[0]?.noTokens === '25000000'
        ? b
        : undefined;
    });
    // Fee wallet: protocol fees (0.012 + 0.007) and no dust here.
    expect((await tokenBalance(h, h.usdcMint, feeWallet)) - fee0).toBe(12_000n + 7_000n);
    // The complementary fill minted 5 sets: 5 more USDC in the vault (3.5 from the taker, 1.5 from the maker).
    expect(await vault()).toBe(25n * USDC);

    // sell_complementary: maker asks YES at 5500; taker sells NO... needs NO tokens: split first.
    await clobWrite(h, '/v2/clob/account/split', { pubkey: tk, marketId: market.id, amount: (4n * USDC).toString() }, taker);
    await waitFor('taker split indexed', async () => ((await balances(tk)).markets[0]?.noTokens === '4000000' ? true : undefined));
    await place(h, maker, { market: m, side: 'sell', outcome: 'yes', priceBps: 5500, quantity: 4n * USDC });
    const sc = await place(h, taker, { market: m, side: 'sell', outcome: 'no', priceBps: 4500, quantity: 4n * USDC });
    expect(sc.fills.map((f: Json) => f.fillType)).toEqual(['sell_complementary']);
    await settled(sc.fills.map((f: Json) => f.id));
    // The taker split 4 (vault +4), then the sell_complementary fill merged 4 sets (vault −4).
    expect(await vault()).toBe(25n * USDC);

    // A settled fill cannot travel again: re-driving it is refused (it is not failed).
    const redrive = await post(
      h,
      `/v2/admin/clob/fills/${fills[0]!.id}/retry`,
      {},
      { authorization: 'Bearer test-admin-token-0123456789' },
    );
    expect(redrive.statusCode).toBe(409);

    // Positions: the taker bought 10 YES at 6000 and 5 at 7000 (complementary), fees in the basis,
    // and split 4 (4 YES + 4 NO at 5000 each: 2 USDC per side) whose 4 NO it sold.
    const pos = await waitFor(
      'positions',
      async () => {
        const p = (await get(h, `/v2/clob/positions?pubkey=${tk}`)).json().positions as Json[];
        // The split may be applied before the settled NO sale is (it is seen as soon as it is indexed): wait for both.
        const done =
          p.find((x) => x.outcome === 'yes' && x.netQuantity === '19000000') && p.find((x) => x.outcome === 'no' && x.netQuantity === '0');
        return done ? p : undefined;
      },
      20_000,
    );
    const yes = pos.find((x) => x.outcome === 'yes')!;
    expect(yes).toMatchObject({ totalCost: String(6_015_000 + 3_508_750 + 2_000_000), totalFees: String(15_000 + 8_750) });
    expect(pos.find((x) => x.outcome === 'no')).toMatchObject({ netQuantity: '0', totalCost: '0' });
    const summary = (await get(h, `/v2/clob/positions/summary?pubkey=${tk}`)).json();
    expect(summary.activePositions).toBeGreaterThan(0);
  }, 90_000);

  it('a settled fill shows in the balances at once, before the indexer re-reads the smart wallets', async () => {
    const market = await createClobMarket(h);
    const maker = await depositedTrader(h, 50n * USDC);
    const taker = await depositedTrader(h, 50n * USDC);
    const [mk, tk] = [maker, taker].map((k) => k.publicKey.toBase58()) as [string, string];
    // The index job stands still: only what settlement writes itself can change the balances.
    const index = h.daemon.queues.get('index');
    await index.pause();
    try {
      await place(h, maker, { market: market.marketPubkey, side: 'buy', outcome: 'no', priceBps: 4000, quantity: 10n * USDC });
      const r = await place(h, taker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 6000, quantity: 10n * USDC });
      const [fill] = await settled((r.fills as Json[]).map((f) => f.id));
      // Right after the fill reads settled: its hold is gone, and the balance it was held against moved with it.
      const tb = await balances(tk);
      const takerUsdc = 50n * USDC - BigInt(fill!.usdcAmount) - BigInt(fill!.takerFee);
      expect(tb).toMatchObject({ smartWalletBalance: takerUsdc.toString(), withdrawable: takerUsdc.toString(), totalCommitted: '0' });
      expect(tb.markets.find((x: Json) => x.marketId === market.id)).toMatchObject({ yesTokens: '10000000', committedCollateral: '0' });
      const mb = await balances(mk);
      const makerUsdc = 50n * USDC - BigInt(fill!.makerUsdcAmount) + BigInt(fill!.makerRebate);
      expect(mb).toMatchObject({ smartWalletBalance: makerUsdc.toString(), withdrawable: makerUsdc.toString(), totalCommitted: '0' });
      expect(mb.markets.find((x: Json) => x.marketId === market.id)).toMatchObject({ noTokens: '10000000' });
    } finally {
      await index.resume();
    }
  }, 60_000);

  // Last: it moves the cluster's clock two hours ahead.
  it('an order that expires before its registration lands fails its fill with the reason and releases the holds', async () => {
    const market = await createClobMarket(h);
    const maker = await depositedTrader(h, 50n * USDC);
    const taker = await depositedTrader(h, 50n * USDC);
    const [mk, tk] = [maker, taker].map((k) => k.publicKey.toBase58()) as [string, string];
    // With no usable lookup table, a fill whose orders are new does not fit one transaction: the
    // keeper first sends a registration of its orders, which carries no fill. The keeper's reads
    // are made blind to lookup tables so that this is the transaction the expiry refuses.
    const client = h.daemon.chain.client;
    const getMultipleAccounts = client.getMultipleAccounts;
    client.getMultipleAccounts = async (addresses, commitment) =>
      (await getMultipleAccounts.call(client, addresses, commitment)).map((a) =>
        a && a.owner === AddressLookupTableProgram.programId.toBase58() ? null : a,
      );
    // Settlement waits while the orders match, then the cluster's time passes their expiry (an hour).
    const platform = h.daemon.queues.get('platform');
    await platform.pause();
    try {
      let fillId: string;
      try {
        await place(h, maker, { market: market.marketPubkey, side: 'buy', outcome: 'no', priceBps: 4000, quantity: 10n * USDC });
        const r = await place(h, taker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 6000, quantity: 10n * USDC });
        fillId = (r.fills as Json[])[0]!.id;
        expect((await balances(tk)).totalCommitted).not.toBe('0');
        h.ledger.warpTime(7_200);
      } finally {
        await platform.resume();
      }
      // The registration is refused (OrderExpired, naming the order and no fill): the fill fails with that reason.
      const fill = await waitFor(
        'fill failed',
        async () => {
          const f = (await get(h, `/v2/clob/fills/${fillId}`)).json().fill as Json;
          return f.status === 'failed' ? f : undefined;
        },
        20_000,
      );
      expect(fill.failureReason).toMatch(/^OrderExpired: /);
      expect(fill.settleTx).toBeNull();
      for (const owner of [mk, tk])
        expect(await balances(owner)).toMatchObject({
          smartWalletBalance: (50n * USDC).toString(),
          withdrawable: (50n * USDC).toString(),
          totalCommitted: '0',
        });
      // It stays failed: nothing plans it again. Waited for by an event, not a sleep: a whole settle
      // sweep (which plans every market with matched fills) started and finished after the failure.
      // A sweep's run removes itself when done (job-retention.test.ts): its completion is read from
      // the queue's events; its id names the time it was due, so a later one started after the failure.
      const failedAt = Date.now();
      const connection = createRedisConnection(h.daemon.redisUrl, 'blocking', 'test-sweep-events');
      const events = new QueueEvents('platform', { connection, prefix: h.daemon.queues.prefix });
      try {
        let swept = false;
        events.on('completed', ({ jobId }) => {
          const due = /^repeat:clob-settle-sweep:(\d+)$/.exec(jobId)?.[1];
          if (due && Number(due) > failedAt) swept = true;
        });
        await events.waitUntilReady();
        await waitFor('a settle sweep run after the failure', async () => (swept ? true : undefined), 20_000);
      } finally {
        await events.close();
        await connection.quit();
      }
      expect((await get(h, `/v2/clob/fills/${fillId}`)).json().fill).toMatchObject({ status: 'failed' });
    } finally {
      client.getMultipleAccounts = getMultipleAccounts;
    }
  }, 60_000);
});
