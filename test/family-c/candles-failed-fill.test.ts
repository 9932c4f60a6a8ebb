/**
 * A fill that fails at settlement is taken out of the price candles again (issue 30), on a real
 * stack on SQLite and PostgreSQL: the candles count it first, the keeper records the failure, the
 * candles job takes it out, and the table equals a rebuild from the fills.
 */
import { Transaction } from '@solana/web3.js';
import { getWithdrawInstruction } from '@pmx/programs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allMarketCandles } from '../../db/repositories/clob-candles.repository.js';
import { rebuildCandles } from '../../src/services/family-c/candles.service.js';
import { CLOB_DATABASES, openClobHarnessOn } from './dialect-harness.js';
import { clobWrite, createClobMarket, depositedTrader, get, place, USDC, waitFor, type CHarness } from './family-c.harness.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe.each(CLOB_DATABASES)('price candles and failed fills on $name', ({ name, available }) => {
  let h: CHarness;
  beforeAll(async () => {
    if (available) h = await openClobHarnessOn(name);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it.skipIf(!available)(
    'a fill that fails at settlement is taken out of the candles again',
    async () => {
      const market = await createClobMarket(h);
      const m = market.marketPubkey;
      const payer = await depositedTrader(h, 10n * USDC); // its wallet is emptied behind the API: its fill fails
      const buyer = await depositedTrader(h, 10n * USDC);
      const seller = await depositedTrader(h, 10n * USDC);
      const sk = seller.publicKey.toBase58();
      await clobWrite(h, '/v2/clob/account/split', { pubkey: sk, marketId: market.id, amount: (10n * USDC).toString() }, seller);
      await waitFor(
        'split indexed',
        async () =>
          (await get(h, `/v2/clob/account/balances?pubkey=${sk}`)).json().markets[0]?.yesTokens === '10000000' ? true : undefined,
        20_000,
      );
      // Settlement stands still until the payer's fill is matched against the wallet about to be
      // emptied and the candles count it (the index runs: the fills no longer rest, nothing to cancel).
      const platform = h.daemon.queues.get('platform');
      await platform.pause();
      const db = h.daemon.db.db;
      const state = async (id: string) =>
        Number((await db.selectFrom('clob_fills').select('candle_state').where('id', '=', id).executeTakeFirstOrThrow()).candle_state);
      const history = async (t: number) =>
        (await get(h, `/v2/clob/markets/${market.id}/prices-history?outcome=no&interval=1h&from=${t - 7_200}&to=${t + 7_200}`)).json()
          .candles;
      let failing: Json;
      let good: Json;
      try {
        await place(h, seller, { market: m, side: 'sell', outcome: 'yes', priceBps: 3000, quantity: 4n * USDC });
        const payerTake = { market: m, side: 'buy', outcome: 'yes', priceBps: 3000, quantity: 2n * USDC, timeInForce: 'ioc' } as const;
        [failing] = (await place(h, payer, payerTake)).fills;
        [good] = (await place(h, buyer, { ...payerTake, priceBps: 3500, quantity: 1n * USDC })).fills;
        const { blockhash } = await h.daemon.chain.client.getLatestBlockhash();
        const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash });
        const programId = h.daemon.chain.programs.exchange;
        tx.add(getWithdrawInstruction({ owner: payer.publicKey, usdcMint: h.usdcMint, amount: 10n * USDC, programId }));
        tx.sign(payer);
        expect((await h.ledger.sendRawTransaction(tx.serialize(), { preflight: true })).err).toBeNull();
        await waitFor('both fills counted', async () =>
          (await state(failing!.id)) === 1 && (await state(good!.id)) === 1 ? true : undefined,
        );
        const t = Math.floor(Date.parse(good!.matchedAt) / 1000);
        expect(await history(t)).toEqual([
          { t: Math.floor(t / 3_600) * 3_600, open: 7000, high: 7000, low: 7000, close: 7000, volume: '3000000' },
        ]);
      } finally {
        await platform.resume();
      }
      // The failure is recorded and the job has seen it (state 2: left out).
      await waitFor(
        'the failed fill taken out',
        async () => {
          const f = (await get(h, `/v2/clob/fills/${failing!.id}`)).json().fill;
          return f.status === 'failed_insufficient_balance' && (await state(failing!.id)) === 2 ? true : undefined;
        },
        30_000,
      );
      const t = Math.floor(Date.parse(good!.matchedAt) / 1000);
      const candles = (
        await get(h, `/v2/clob/markets/${market.id}/prices-history?outcome=no&interval=1h&from=${t - 7_200}&to=${t + 7_200}`)
      ).json().candles;
      expect(candles).toEqual([{ t: Math.floor(t / 3_600) * 3_600, open: 7000, high: 7000, low: 7000, close: 7000, volume: '1000000' }]);
      const kept = await allMarketCandles(db, market.id);
      await rebuildCandles({ db }, market.id);
      expect(await allMarketCandles(db, market.id)).toEqual(kept);
    },
    120_000,
  );
});
